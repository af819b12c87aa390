import { eq, inArray } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, chatMessageReports } from '~db/schema';
import { createGuide, createTraveler, createUser } from '~server/seed/factories';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/** The admin queue of reported chat messages (issue 23): the page, dismiss, hide (audited), the dashboard count. */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());

const form = (path: string, cookie: string, values: Record<string, string>) => server.postForm(path, cookie, values);
const reportedCount = (html: string) => Number(/data-testid="stat-reported-messages"[^>]*>(\d+)</.exec(html)?.[1]);
const awaitingReviewCount = (html: string) => Number(/data-testid="stat-awaiting-review"[^>]*>(\d+)</.exec(html)?.[1]);

describe(`reported messages queue (${testDriver})`, () => {
  it('an admin reads the report with its context and the sender history, dismisses one and hides another; participants see the notice', async () => {
    const traveler = await createTraveler({ name: '旅客小美' });
    const guide = await createGuide({ name: '導遊阿明' });
    const [t, g] = [await loginAs(traveler), await loginAs(guide)];
    const admin = await createUser({ type: 'admin' });
    const a = await loginAs(admin);
    const started = await server.request('/api/v1/chats', { token: t.token, json: { guideId: guide.id, message: '請問可以半天嗎？' } });
    const chatId: number = started.json.data.chat.id;
    const send = async (token: string, text: string) => (await server.request(`/api/v1/chats/${chatId}/messages`, { token, json: { text, clientId: crypto.randomUUID() } })).json.data.message.id as number;
    const rude = await send(g.token, '加我 LINE: aming77 私下付款比較便宜');
    await send(t.token, '平台上付就好');
    const second = await send(g.token, '你很煩');
    const dashboardBefore = (await server.request('/admin', { cookie: a.cookie })).text;
    const before = reportedCount(dashboardBefore);

    expect((await server.request(`/api/v1/messages/${rude}/report`, { token: t.token, json: { reason: '要求私下付款' } })).status).toBe(200);
    expect((await server.request(`/api/v1/messages/${second}/report`, { token: t.token, json: {} })).status).toBe(200);
    const dashboardAfter = (await server.request('/admin', { cookie: a.cookie })).text;
    expect(reportedCount(dashboardAfter)).toBe(before + 2);
    // The dashboard's total of what awaits review counts them too (issue 35: it said 9 while its cards added up to 10).
    expect(awaitingReviewCount(dashboardAfter)).toBe(awaitingReviewCount(dashboardBefore) + 2);

    const queue = await server.request('/admin/reports', { cookie: a.cookie });
    expect(queue.status).toBe(200);
    // The original text (admins read it unmasked), the reporter, the reason, the context, the sender's history.
    expect(queue.text).toContain('加我 LINE: aming77 私下付款比較便宜');
    expect(queue.text).toContain('檢舉人：旅客小美');
    expect(queue.text).toContain('原因：要求私下付款');
    expect(queue.text).toContain('平台上付就好');
    expect(queue.text).toContain('已發送 2 則 · 被檢舉 2 則 · 已隱藏 0 則');
    expect(queue.text).toContain(`/admin/users/${guide.id}`);
    expect((await server.request('/admin/reports', { cookie: g.cookie })).status).not.toBe(200);

    const [first, next] = await getDb().select().from(chatMessageReports).where(inArray(chatMessageReports.messageId, [rude, second])).orderBy(chatMessageReports.id);
    const dismissed = await form('/admin/reports', a.cookie, { intent: 'dismiss', reportId: String(next!.id) });
    expect(dismissed.status).toBe(302);
    const hidden = await form('/admin/reports', a.cookie, { intent: 'hide', reportId: String(first!.id) });
    expect(hidden.status).toBe(302);
    // Decided already (another admin's tab): nothing changes twice.
    expect((await form('/admin/reports', a.cookie, { intent: 'hide', reportId: String(first!.id) })).status).toBe(302);
    expect((await form('/admin/reports', a.cookie, { intent: 'nuke', reportId: String(first!.id) })).status).toBe(404);

    const rows = await getDb().select().from(chatMessageReports).where(inArray(chatMessageReports.id, [first!.id, next!.id])).orderBy(chatMessageReports.id);
    expect(rows.map((r) => [r.resolution, r.resolvedBy])).toEqual([
      ['hidden', admin.id],
      ['dismissed', admin.id],
    ]);
    const audits = await getDb().select().from(auditLogs).where(eq(auditLogs.actorId, admin.id));
    expect(audits.map((r) => [r.action, r.targetId]).sort()).toEqual([
      ['chat.message.hide', String(rude)],
      ['chat.report.dismiss', String(second)],
    ]);
    expect((await server.request('/admin/reports', { cookie: a.cookie })).text).toContain('目前沒有待處理的檢舉。');
    expect(reportedCount((await server.request('/admin', { cookie: a.cookie })).text)).toBe(before);

    // Both participants now see a notice instead of the text; the admin still reads it.
    for (const who of [t, g]) {
      const list = await server.request(`/api/v1/chats/${chatId}/messages`, { token: who.token });
      const shown = list.json.data.messages.find((m: { id: number }) => m.id === rude);
      expect(shown).toMatchObject({ hidden: true, text: '' });
      const page = await server.request(`/chat/${chatId}`, { cookie: who.cookie });
      expect(page.text).toContain('這則訊息已被平台移除。');
      expect(page.text).not.toContain('aming77');
    }
    const asAdmin = await server.request(`/api/v1/chats/${chatId}/messages`, { token: a.token });
    expect(asAdmin.json.data.messages.find((m: { id: number }) => m.id === rude)).toMatchObject({ hidden: true, text: '加我 LINE: aming77 私下付款比較便宜' });
  });
});
