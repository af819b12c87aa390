import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, users } from '~db/schema';
import { createGuide, createOrder, createTraveler, createUser } from '~server/seed/factories';
import type { UserRow } from '~/services/accounts/users.server';
import { loginAs } from '../support/api';
import { outboxFor } from '../support/mail';
import { useTestServer } from '../support/http-server';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Issue 22, users: /admin/users, /admin/users/archived and /admin/users/:id over real HTTP — who may see them,
 * CJK-aware search, status labels and filters, 20 a page, and each action of the account page (plain form posts,
 * as a browser without JS sends them): it changes what it should, asks first when destructive, and is audited.
 */
useTestDatabase();
const server = useTestServer();
const ZH = { 'accept-language': 'zh-TW' };

type Login = Awaited<ReturnType<typeof loginAs>>;
let admin: UserRow;
let adminLogin: Login;
let travelerLogin: Login;
let guideLogin: Login;

beforeAll(async () => {
  admin = await createUser({ type: 'admin', name: '管理員甲' });
  adminLogin = await loginAs(admin);
  travelerLogin = await loginAs(await createTraveler({ name: '路人旅客' }));
  guideLogin = await loginAs(await createGuide({ name: '路人導遊' }));
});

const decode = (s: string) => s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
/** The ids of the account rows of a list page, in order. */
const rowIds = (html: string) => [...html.matchAll(/data-testid="admin-user-(\d+)"/g)].map((m) => Number(m[1]));
/** Text of the element with this test id. */
function testIdText(html: string, id: string): string {
  const match = new RegExp(`data-testid="${id}"[^>]*>([\\s\\S]*?)</(dd|p|td)>`).exec(html);
  expect(match, id).not.toBeNull();
  return decode(match![1]!.replace(/<[^>]+>/g, '').replace(/<!-- -->/g, '')).trim();
}

function post(path: string, form: Record<string, string>, login: Login = adminLogin) {
  return server.request(path, { method: 'POST', cookie: login.cookie, body: new URLSearchParams(form), headers: ZH });
}

async function auditOf(targetId: number, action: string) {
  return getDb()
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.targetType, 'user'), eq(auditLogs.targetId, String(targetId)), eq(auditLogs.action, action)));
}

async function row(id: number) {
  const [u] = await getDb().select().from(users).where(eq(users.id, id));
  return u!;
}

describe(`admin user pages (${testDriver})`, () => {
  it('are refused to anyone but an admin: login for the anonymous, 403 for travelers and guides, and posts change nothing', async () => {
    const target = await createTraveler();
    for (const path of ['/admin/users', '/admin/users/archived', `/admin/users/${target.id}`]) {
      const anonymous = await server.request(path);
      expect(anonymous.status, path).toBe(302);
      expect(anonymous.headers.get('location')).toMatch(/^\/login\?redirectTo=/);
      for (const login of [travelerLogin, guideLogin]) expect((await server.request(path, { cookie: login.cookie })).status, path).toBe(403);
    }
    for (const login of [travelerLogin, guideLogin]) {
      const res = await post(`/admin/users/${target.id}`, { intent: 'block', confirmed: 'yes' }, login);
      expect(res.status).toBe(403);
    }
    expect((await row(target.id)).blockedAt).toBeNull();
    expect(await auditOf(target.id, 'user.block')).toHaveLength(0);
    expect((await server.request('/admin/users/99999999', { cookie: adminLogin.cookie })).status).toBe(404);
    expect((await server.request('/admin/users/abc', { cookie: adminLogin.cookie })).status).toBe(404);
  });

  it('finds people by a Chinese name in either spelling, by full-width letters, and filters by role and status label', async () => {
    const taipei = await createTraveler({ name: '臺北小明', email: `xiaoming-${Date.now()}@example.test` });
    const alice = await createGuide({ name: 'Alice Wu' });
    const unverified = await createTraveler({ name: '林未驗證', isEmailVerified: false, emailVerifiedAt: null });
    const blocked = await createTraveler({ name: '林停權', blockedAt: new Date(), status: 'suspended' });

    const search = async (params: Record<string, string>) =>
      rowIds((await server.request(`/admin/users?${new URLSearchParams(params)}`, { cookie: adminLogin.cookie, headers: ZH })).text);
    expect(await search({ search: '台北' })).toEqual([taipei.id]);
    expect(await search({ search: '臺北 小明' })).toEqual([taipei.id]);
    expect(await search({ search: 'ＡＬＩＣＥ' })).toEqual([alice.id]);
    expect(await search({ search: 'xiaoming' })).toEqual([taipei.id]);
    expect(await search({ search: 'alice', type: 'traveler' })).toEqual([]);
    expect(await search({ search: '林', status: 'inactive' })).toEqual([unverified.id]);
    expect(await search({ search: '林', status: 'suspended' })).toEqual([blocked.id]);
    expect(await search({ search: '林', status: 'active' })).toEqual([]);
    expect(new Set(await search({ search: '林', sortBy: 'name', sortOrder: 'asc' }))).toEqual(new Set([unverified.id, blocked.id]));

    const page = await server.request(`/admin/users?search=${encodeURIComponent('林')}`, { cookie: adminLogin.cookie, headers: ZH });
    const blockedRow = new RegExp(`data-testid="admin-user-${blocked.id}"[\\s\\S]*?</tr>`).exec(page.text)?.[0] ?? '';
    expect(blockedRow).toContain('已停權');
    expect(page.text).toContain('未啟用');
  });

  it('shows 20 accounts a page, with the next page linked and the filters kept', async () => {
    for (let i = 0; i < 23; i++) await createTraveler({ name: `分頁測試 ${String(i).padStart(2, '0')}` });
    const q = `search=${encodeURIComponent('分頁測試')}&sortBy=name&sortOrder=asc`;
    const first = await server.request(`/admin/users?${q}`, { cookie: adminLogin.cookie, headers: ZH });
    expect(rowIds(first.text)).toHaveLength(20);
    expect(decode(first.text)).toContain(`href="/admin/users?search=${encodeURIComponent('分頁測試')}&amp;sortBy=name&amp;sortOrder=asc&amp;page=2"`.replace(/&amp;/g, '&'));
    const second = await server.request(`/admin/users?${q}&page=2`, { cookie: adminLogin.cookie, headers: ZH });
    expect(rowIds(second.text)).toHaveLength(3);
  });

  it('blocks only after the confirmation step; the person is signed out at once; the block is audited', async () => {
    const person = await createTraveler({ name: '要停權的人' });
    const personLogin = await loginAs(person);
    expect((await server.request('/me', { cookie: personLogin.cookie })).status).toBe(200);

    const asked = await post(`/admin/users/${person.id}`, { intent: 'block' });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('data-testid="confirm-user-action"');
    expect((await row(person.id)).blockedAt).toBeNull();

    const done = await post(`/admin/users/${person.id}`, { intent: 'block', confirmed: 'yes' });
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe(`/admin/users/${person.id}`);
    expect((await row(person.id)).blockedAt).not.toBeNull();
    expect((await server.request('/me', { cookie: personLogin.cookie })).status).toBe(302);
    expect((await server.request('/api/v1/auth/logout', { method: 'POST', token: personLogin.token })).status).toBe(401);
    const [entry] = await auditOf(person.id, 'user.block');
    expect(entry).toMatchObject({ actorId: admin.id });

    const page = await server.request(`/admin/users/${person.id}`, { cookie: adminLogin.cookie, headers: ZH });
    expect(testIdText(page.text, 'user-state')).toContain('已停權');
    expect(testIdText(page.text, 'user-sessions')).toBe('0');
    expect(page.text).toContain('停權帳號');
    expect(page.text.replace(/<script[\s\S]*?<\/script>/g, '')).not.toContain('user.block');

    expect((await post(`/admin/users/${person.id}`, { intent: 'unblock' })).status).toBe(302);
    expect((await row(person.id)).blockedAt).toBeNull();
    expect(await auditOf(person.id, 'user.unblock')).toHaveLength(1);
  });

  it('archives and restores; the archived list holds the account meanwhile', async () => {
    const person = await createTraveler({ name: '封存測試人' });
    expect((await post(`/admin/users/${person.id}`, { intent: 'archive', confirmed: 'yes' })).status).toBe(302);
    const archived = await server.request(`/admin/users/archived?search=${encodeURIComponent('封存測試人')}`, { cookie: adminLogin.cookie });
    expect(rowIds(archived.text)).toEqual([person.id]);
    // Badged as archived, not as 啟用 (issue 35); the state it had stays readable beside it.
    const archivedRow = new RegExp(`data-testid="admin-user-${person.id}"[\\s\\S]*?</tr>`).exec(archived.text)![0];
    expect(archivedRow).toContain('<span class="state-label state-archived">已封存</span>');
    expect(archivedRow).not.toContain('class="state-label state-active"');
    expect(rowIds((await server.request(`/admin/users?search=${encodeURIComponent('封存測試人')}`, { cookie: adminLogin.cookie })).text)).toEqual([]);
    expect((await post(`/admin/users/${person.id}`, { intent: 'restore' })).status).toBe(302);
    expect((await row(person.id)).deletedAt).toBeNull();
    expect(await auditOf(person.id, 'user.archive')).toHaveLength(1);
    expect(await auditOf(person.id, 'user.restore')).toHaveLength(1);
  });

  it('ends every session of an account and records how many', async () => {
    const person = await createTraveler();
    const a = await loginAs(person);
    await loginAs(person);
    expect((await post(`/admin/users/${person.id}`, { intent: 'endSessions', confirmed: 'yes' })).status).toBe(302);
    expect((await server.request('/me', { cookie: a.cookie })).status).toBe(302);
    expect((await server.request('/api/v1/auth/logout', { method: 'POST', token: a.token })).status).toBe(401);
    const [entry] = await auditOf(person.id, 'user.sessions_end');
    expect(entry?.details).toMatchObject({ sessions: 4 });
    // The person is not blocked: they sign in again.
    expect((await row(person.id)).blockedAt).toBeNull();
  });

  it('resends the verification mail to an unverified account only', async () => {
    const person = await createTraveler({ isEmailVerified: false, emailVerifiedAt: null });
    expect((await post(`/admin/users/${person.id}`, { intent: 'resendVerification' })).status).toBe(302);
    const mails = await outboxFor(person.email);
    expect(mails).toHaveLength(1);
    expect(await auditOf(person.id, 'user.verification_resend')).toHaveLength(1);

    const verified = await createTraveler();
    const refused = await post(`/admin/users/${verified.id}`, { intent: 'resendVerification' });
    expect(refused.status).toBe(409);
    expect(await outboxFor(verified.email)).toHaveLength(0);
  });

  it('changes a role between traveler and guide only: never to admin, never an admin', async () => {
    const person = await createTraveler({ name: '轉導遊' });
    await createOrder({ travelerId: person.id, guideId: (await createGuide()).id });
    expect((await post(`/admin/users/${person.id}`, { intent: 'changeRole', role: 'guide', confirmed: 'yes' })).status).toBe(302);
    expect((await row(person.id)).type).toBe('guide');
    expect((await row(person.id)).guideStatus).toBe('active');
    const [entry] = await auditOf(person.id, 'user.role_change');
    expect(entry?.details).toMatchObject({ from: 'traveler', to: 'guide' });

    expect((await post(`/admin/users/${person.id}`, { intent: 'changeRole', role: 'admin', confirmed: 'yes' })).status).toBe(400);
    expect((await row(person.id)).type).toBe('guide');

    const otherAdmin = await createUser({ type: 'admin' });
    expect((await post(`/admin/users/${otherAdmin.id}`, { intent: 'changeRole', role: 'traveler', confirmed: 'yes' })).status).toBe(403);
    expect((await row(otherAdmin.id)).type).toBe('admin');
  });

  it('shows an account’s orders, both review lists and its audit trail', async () => {
    const guide = await createGuide({ name: '詳情導遊' });
    const person = await createTraveler({ name: '詳情旅客' });
    const order = await createOrder({ travelerId: person.id, guideId: guide.id, date: '2030-02-02' });
    const page = await server.request(`/admin/users/${person.id}`, { cookie: adminLogin.cookie, headers: ZH });
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="/admin/orders/${order.id}"`);
    expect(page.text).toContain(`href="/admin/users/${guide.id}"`);
    expect(page.text).toContain('收到的評價');
    expect(page.text).toContain('給出的評價');
  });
});
