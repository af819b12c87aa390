import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, users } from '~db/schema';
import { createTraveler, createUser } from '~server/seed/factories';
import type { UserRow } from '~/services/accounts/users.server';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 31, point 5 (docs/decisions/037-backups-and-admin-accounts.md): admin accounts are managed by
 * ADMIN_EMAIL/ADMIN_PASSWORD only. On /admin/users/:id another admin's account shows no block, archive or role
 * buttons but a note, and the forms posted anyway (a browser without JS, or a crafted post) answer 403 with the
 * translated reason and change nothing; a traveler's page keeps its buttons.
 */
useTestDatabase();
const server = useTestServer();

type Login = Awaited<ReturnType<typeof loginAs>>;
let admin: UserRow;
let adminLogin: Login;
let otherAdmin: UserRow;
let otherLogin: Login;

beforeAll(async () => {
  admin = await createUser({ type: 'admin', name: '管理員甲' });
  adminLogin = await loginAs(admin);
  otherAdmin = await createUser({ type: 'admin', name: '管理員乙' });
  otherLogin = await loginAs(otherAdmin);
});

const post = (login: Login, id: number, form: Record<string, string>, language = 'zh-TW') =>
  server.request(`/admin/users/${id}`, { method: 'POST', cookie: login.cookie, body: new URLSearchParams(form), headers: { 'accept-language': language } });
const page = (login: Login, id: number, language = 'zh-TW') =>
  server.request(`/admin/users/${id}`, { cookie: login.cookie, headers: { 'accept-language': language } });
const decode = (s: string) => s.replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');
/** The intents of the action buttons on an account page. */
const intents = (html: string) => [...html.matchAll(/name="intent" value="(\w+)"/g)].map((m) => m[1]);

describe(`another admin's account on /admin/users/:id (${testDriver})`, () => {
  it('shows no block, archive or role change, but a note; a traveler keeps those buttons', async () => {
    const res = await page(adminLogin, otherAdmin.id, 'en');
    expect(res.status).toBe(200);
    expect(intents(res.text)).not.toContain('block');
    expect(intents(res.text)).not.toContain('archive');
    expect(intents(res.text)).not.toContain('changeRole');
    expect(decode(res.text)).toContain("This is an admin account: it is managed in the server settings (ADMIN_EMAIL) and can't be blocked, archived or given another role here.");

    const traveler = await createTraveler();
    const travelerPage = await page(adminLogin, traveler.id);
    expect(intents(travelerPage.text)).toEqual(expect.arrayContaining(['block', 'archive', 'changeRole']));
    expect(travelerPage.text).not.toContain('data-testid="admin-account-note"');
  });

  it('refuses the forms posted without JS with 403 and the reason in zh-TW, en and ja; nothing changes, nothing is audited', async () => {
    const reasons = {
      'zh-TW': '管理員帳號只能由伺服器設定（ADMIN_EMAIL）管理：無法停權、封存其他管理員，也無法變更其角色。',
      en: 'Admin accounts are managed in the server settings (ADMIN_EMAIL): no admin can block, archive or change the role of another admin.',
      ja: '管理者アカウントはサーバー設定（ADMIN_EMAIL）でのみ管理されます。他の管理者を停止・アーカイブしたり、役割を変更したりすることはできません。',
    };
    for (const [language, reason] of Object.entries(reasons)) {
      for (const [login, target] of [
        [adminLogin, otherAdmin],
        [otherLogin, admin],
      ] as const) {
        for (const form of [{ intent: 'block' }, { intent: 'archive' }, { intent: 'changeRole', role: 'traveler' }] as Record<string, string>[]) {
          const res = await post(login, target.id, { ...form, confirmed: 'yes' }, language);
          expect(res.status, `${language} ${form.intent}`).toBe(403);
          expect(decode(res.text)).toContain(reason);
        }
      }
    }
    for (const account of [admin, otherAdmin]) {
      const [row] = await getDb().select().from(users).where(eq(users.id, account.id));
      expect(row).toMatchObject({ type: 'admin', blockedAt: null, deletedAt: null });
      expect(await getDb().select().from(auditLogs).where(eq(auditLogs.targetId, String(account.id)))).toEqual([]);
    }
    // Both admins still reach the console.
    expect((await page(adminLogin, otherAdmin.id)).status).toBe(200);
    expect((await page(otherLogin, admin.id)).status).toBe(200);
  });
});
