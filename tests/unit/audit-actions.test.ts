import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getFixedT } from '~/i18n/i18n.server';
import { AUDIT_ACTIONS } from '~/lib/audit-actions';
import { auditActionKey, auditFieldLabel, auditLines, auditValueText } from '~/lib/audit-details';
import type { AuditEntry } from '~/services/platform/audit.server';

/**
 * Issue 35: the audit log speaks the admin's language. Every action recordAudit accepts (AUDIT_ACTIONS, the type
 * of AuditEntry.action: an unlisted action does not compile) has a label in zh-TW, en and ja; an entry's details
 * read as "field: before → after" lines with values as the admin sees them elsewhere, never raw JSON.
 */
const LOCALES = ['zh-TW', 'en', 'ja'] as const;

function labelOf(locale: string, action: string): unknown {
  const admin = JSON.parse(fs.readFileSync(path.resolve(`app/locales/${locale}/admin.json`), 'utf8')) as Record<string, unknown>;
  return auditActionKey(action)
    .split('.')
    .slice(1)
    .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), admin);
}

describe('audit actions', () => {
  it('has a label for every action in all three languages, distinct within a language', () => {
    for (const locale of LOCALES) {
      const labels = AUDIT_ACTIONS.map((a) => labelOf(locale, a));
      for (const [i, label] of labels.entries()) expect(typeof label === 'string' && label.trim().length > 0, `${locale} ${AUDIT_ACTIONS[i]}`).toBe(true);
      expect(new Set(labels).size, locale).toBe(labels.length);
    }
  });

  it('lists every action the services write (the type of recordAudit refuses any other)', () => {
    // @ts-expect-error an action missing from AUDIT_ACTIONS does not compile
    const unknown: AuditEntry['action'] = 'banner.explode';
    expect(AUDIT_ACTIONS).not.toContain(unknown);
    // The literal action strings in the services are all listed (the type checks the computed ones).
    const dir = path.resolve('app/services');
    const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const written = new Set<string>();
    for (const f of files) {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      if (!text.includes('recordAudit')) continue;
      for (const m of text.matchAll(/action: (?:[^,}\n]*\? )?'([a-z_]+(?:\.[a-z_]+)+)'(?: : '([a-z_]+(?:\.[a-z_]+)+)')?/g)) {
        written.add(m[1]!);
        if (m[2]) written.add(m[2]);
      }
    }
    expect(written.size).toBeGreaterThan(30);
    for (const action of written) expect(AUDIT_ACTIONS, action).toContain(action);
  });
});

describe('audit details as lines', () => {
  it('turns a banner change into one line per field that changed', () => {
    const lines = auditLines('banner.update', {
      before: { title: '舊', isActive: false, linkUrl: null, sortOrder: 1 },
      after: { title: '新', isActive: true, linkUrl: null, sortOrder: 1 },
    });
    expect(lines).toEqual([
      { field: 'title', before: '舊', after: '新', change: true },
      { field: 'isActive', before: false, after: true, change: true },
    ]);
  });

  it('reads from/to by action, the previous status, the guide standing and export filters', () => {
    expect(auditLines('order.cancel', { from: 'pending', to: 'cancelled', traveler: '林' })).toEqual([
      { field: 'status', before: 'pending', after: 'cancelled', change: true },
      { field: 'traveler', value: '林' },
    ]);
    expect(auditLines('user.role_change', { name: 'A', from: 'traveler', to: 'guide' })[0]).toEqual({ field: 'role', before: 'traveler', after: 'guide', change: true });
    expect(auditLines('user.block', { name: 'A', previousStatus: 'active', status: 'suspended' })).toContainEqual({ field: 'status', before: 'active', after: 'suspended', change: true });
    expect(auditLines('guide.suspend', { reason: '投訴', before: 'active' })).toContainEqual({ field: 'guideStatus', before: 'active', after: 'suspended', change: true });
    expect(auditLines('banner.move', { direction: 'up', from: 3, to: 2 })).toEqual([{ field: 'position', before: 3, after: 2, change: true }]);
    expect(auditLines('export.orders', { filters: { status: 'pending', tourFrom: '2033-05-01' } })).toEqual([
      { field: 'status', value: 'pending' },
      { field: 'tourFrom', value: '2033-05-01' },
    ]);
    expect(auditLines('banner.create', { after: { title: 'T', linkUrl: null, isActive: false } })).toEqual([
      { field: 'title', value: 'T' },
      { field: 'isActive', value: false },
    ]);
  });

  it('shows values as the admin sees them, in zh-TW and en', async () => {
    const zh = await getFixedT('zh-TW');
    const en = await getFixedT('en');
    expect(auditFieldLabel(zh, 'title')).toBe('標題');
    expect(auditFieldLabel(en, 'isActive')).toBe('Shown');
    expect(auditFieldLabel(zh, 'somethingNew')).toBe('somethingNew');
    expect(auditValueText(zh, 'zh-TW', 'order.cancel', 'status', 'cancelled')).toBe('已取消');
    expect(auditValueText(en, 'en', 'order.cancel', 'status', 'cancelled')).toBe('Cancelled');
    expect(auditValueText(zh, 'zh-TW', 'user.block', 'status', 'suspended')).toBe('已停權');
    expect(auditValueText(zh, 'zh-TW', 'user.role_change', 'role', 'guide')).toBe('導遊');
    expect(auditValueText(en, 'en', 'banner.update', 'isActive', true)).toBe('Yes');
    expect(auditValueText(zh, 'zh-TW', 'banner.update', 'linkUrl', null)).toBe('—');
    expect(auditValueText(zh, 'zh-TW', 'user.profile_update', 'fields', ['name', 'city'])).toBe('姓名, 城市');
    expect(auditValueText(zh, 'zh-TW', 'export.users', 'city', 'new_taipei')).toBe(zh('cities.new_taipei'));
    expect(auditValueText(en, 'en', 'payment.refund_resolved', 'amount', 1500)).toMatch(/1,500/);
    expect(auditValueText(en, 'en', 'banner.update', 'startsAt', '2033-05-01T01:00:00.000Z')).toMatch(/2033/);
    expect(auditValueText(en, 'en', 'banner.update', 'startsAt', '2033-05-01T01:00:00.000Z')).not.toContain('T01:00');
    const long = auditValueText(zh, 'zh-TW', 'order.note', 'note', '長'.repeat(300));
    expect([...long]).toHaveLength(80);
    expect(long.endsWith('…')).toBe(true);
    expect(auditValueText(zh, 'zh-TW', 'x', 'data', { a: 1 })).not.toContain('{');
  });
});
