import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, notifications, orderEvents, orders } from '~db/schema';
import { createCompletedOrder, createGuide, createOrder, createTraveler, createUser } from '~server/seed/factories';
import type { UserRow } from '~/services/accounts/users.server';
import { loginAs } from '../support/api';
import { useTestServer } from '../support/http-server';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Issue 22, orders: /admin/orders and /admin/orders/:id over real HTTP — refused to non-admins; the filters; and
 * each admin action (as a browser without JS posts it): asks first, changes the order, writes the timeline,
 * notifies both parties in their own language, and is audited.
 */
useTestDatabase();
const server = useTestServer();
const ZH = { 'accept-language': 'zh-TW' };

type Login = Awaited<ReturnType<typeof loginAs>>;
let admin: UserRow;
let adminLogin: Login;
let traveler: UserRow;
let guide: UserRow;
let otherGuide: UserRow;

beforeAll(async () => {
  admin = await createUser({ type: 'admin', name: '訂單管理員' });
  adminLogin = await loginAs(admin);
  traveler = await createTraveler({ name: '臺中旅客', locale: 'en' });
  guide = await createGuide({ name: '山城導遊', locale: 'ja' });
  otherGuide = await createGuide({ name: '海邊導遊' });
});

const rowIds = (html: string) => [...html.matchAll(/data-testid="admin-order-(\d+)"/g)].map((m) => Number(m[1]));
const list = async (params: Record<string, string>) =>
  rowIds((await server.request(`/admin/orders?${new URLSearchParams(params)}`, { cookie: adminLogin.cookie, headers: ZH })).text);

function post(id: number, form: Record<string, string>, login: Login = adminLogin) {
  return server.request(`/admin/orders/${id}`, { method: 'POST', cookie: login.cookie, body: new URLSearchParams(form), headers: ZH });
}
async function orderRow(id: number) {
  const [o] = await getDb().select().from(orders).where(eq(orders.id, id));
  return o!;
}
async function audits(id: number, action: string) {
  return getDb().select().from(auditLogs).where(and(eq(auditLogs.targetType, 'order'), eq(auditLogs.targetId, String(id)), eq(auditLogs.action, action)));
}
async function noticesOf(userId: number, type: string) {
  return getDb().select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.type, type)));
}

describe(`admin order pages (${testDriver})`, () => {
  it('are refused to anyone but an admin, and a refused post changes nothing', async () => {
    const order = await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2031-01-01' });
    for (const path of ['/admin/orders', `/admin/orders/${order.id}`]) {
      expect((await server.request(path)).status).toBe(302);
      expect((await server.request(path, { cookie: (await loginAs(traveler)).cookie })).status).toBe(403);
      expect((await server.request(path, { cookie: (await loginAs(guide)).cookie })).status).toBe(403);
    }
    // Even the order's own parties may not use the admin actions.
    expect((await post(order.id, { intent: 'delete', confirmed: 'yes' }, await loginAs(traveler))).status).toBe(403);
    expect((await orderRow(order.id)).deletedAt).toBeNull();
    expect((await server.request('/admin/orders/99999999', { cookie: adminLogin.cookie })).status).toBe(404);
  });

  it('filters by status, tour dates, party (name in either spelling, or number), order number, and lists deleted ones apart', async () => {
    const a = await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2032-03-01', status: 'confirmed' });
    const b = await createOrder({ travelerId: traveler.id, guideId: otherGuide.id, date: '2032-03-15' });
    const deleted = await createOrder({ travelerId: traveler.id, guideId: otherGuide.id, date: '2032-03-20', deletedAt: new Date() });
    const inMarch = { tourFrom: '2032-03-01', tourTo: '2032-03-31' };
    expect(await list(inMarch)).toEqual([b.id, a.id]);
    expect(await list({ ...inMarch, status: 'confirmed' })).toEqual([a.id]);
    expect(await list({ ...inMarch, guide: '海邊' })).toEqual([b.id]);
    expect(await list({ ...inMarch, traveler: '台中' })).toEqual([b.id, a.id]);
    expect(await list({ ...inMarch, guide: String(guide.id) })).toEqual([a.id]);
    expect(await list({ id: `#${b.id}` })).toEqual([b.id]);
    expect(await list({ ...inMarch, tourTo: '2032-03-10' })).toEqual([a.id]);
    expect(await list({ ...inMarch, deleted: 'only' })).toEqual([deleted.id]);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(new Date());
    expect(await list({ ...inMarch, createdFrom: today, createdTo: today })).toEqual([b.id, a.id]);
    expect(await list({ ...inMarch, createdTo: '2020-01-01' })).toEqual([]);
  });

  it('says so next to the fields when a date range is typed backwards, keeps what was typed, and lists nothing (issue 35)', async () => {
    await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2032-04-10' });
    const input = (html: string, name: string) => new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? '';
    const zh = await server.request('/admin/orders?tourFrom=2032-04-30&tourTo=2032-04-01&guide=%E5%B1%B1%E5%9F%8E', { cookie: adminLogin.cookie, headers: ZH });
    expect(zh.status).toBe(200);
    expect(input(zh.text, 'tourFrom')).toContain('value="2032-04-30"');
    expect(input(zh.text, 'tourTo')).toContain('value="2032-04-01"');
    expect(input(zh.text, 'tourTo')).toContain('aria-invalid="true"');
    expect(input(zh.text, 'guide')).toContain('value="山城"');
    expect(zh.text).toMatch(/<p class="field-error" id="order-tour-to-error">[^<]*晚於[^<]*<\/p>/);
    expect(rowIds(zh.text)).toEqual([]);
    const en = await server.request('/admin/orders?createdFrom=2032-04-30&createdTo=2032-04-01', { cookie: adminLogin.cookie, headers: { 'accept-language': 'en' } });
    expect(en.text).toMatch(/<p class="field-error" id="order-created-to-error">[^<]*after[^<]*<\/p>/);
    expect(input(en.text, 'createdFrom')).toContain('value="2032-04-30"');
    // Any other value the list cannot use is kept and named too, instead of silently listing everything.
    const bad = await server.request('/admin/orders?id=abc&status=pending', { cookie: adminLogin.cookie, headers: ZH });
    expect(input(bad.text, 'id')).toContain('value="abc"');
    expect(bad.text).toContain('id="order-id-error"');
    expect(rowIds(bad.text)).toEqual([]);
    // A range the right way round still lists (same day both ends too).
    expect((await list({ tourFrom: '2032-04-10', tourTo: '2032-04-10' })).length).toBe(1);
  });

  it('cancels after the confirmation step with a reason; both parties are told; the reason is audited', async () => {
    const order = await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2031-02-02', status: 'confirmed' });
    const missing = await post(order.id, { intent: 'cancel', reason: '' });
    expect(missing.status).toBe(400);
    const asked = await post(order.id, { intent: 'cancel', reason: '導遊生病' });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('data-testid="confirm-order-action"');
    expect((await orderRow(order.id)).status).toBe('confirmed');

    const done = await post(order.id, { intent: 'cancel', reason: '導遊生病', confirmed: 'yes' });
    expect(done.status).toBe(302);
    expect((await orderRow(order.id)).status).toBe('cancelled');
    const [entry] = await audits(order.id, 'order.cancel');
    expect(entry).toMatchObject({ actorId: admin.id, details: expect.objectContaining({ reason: '導遊生病', from: 'confirmed', refund: 2000 }) });
    const events = await getDb().select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(events.map((e) => [e.action, e.actorRole])).toContainEqual(['cancel', 'admin']);
    const [toTraveler] = await noticesOf(traveler.id, 'order.cancelled').then((n) => n.filter((x) => x.link === `/orders/${order.id}`));
    const [toGuide] = await noticesOf(guide.id, 'order.cancelled').then((n) => n.filter((x) => x.link === `/orders/${order.id}`));
    expect(toTraveler?.title).toMatch(/[A-Za-z]/);
    expect(toGuide?.title).toMatch(/[\u3040-\u30ff]/);

    // Cancelling again is not a move the order has.
    expect((await post(order.id, { intent: 'cancel', reason: 'again', confirmed: 'yes' })).status).toBe(409);
  });

  it('refunds a cancelled order (the state machine’s admin rule) and tells both parties', async () => {
    const order = await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2031-03-03', status: 'cancelled' });
    const page = await server.request(`/admin/orders/${order.id}`, { cookie: adminLogin.cookie, headers: ZH });
    expect(page.text).toContain('value="refund"');
    expect(page.text).not.toContain('value="cancel"');
    // A refund moves money (issue 32): it says why, kept in the audit log.
    expect((await post(order.id, { intent: 'refund', confirmed: 'yes' })).status).toBe(400);
    expect((await orderRow(order.id)).status).toBe('cancelled');
    expect((await post(order.id, { intent: 'refund', reason: '旅客重複付款', confirmed: 'yes' })).status).toBe(302);
    expect((await orderRow(order.id)).status).toBe('refunded');
    const [audit] = await audits(order.id, 'order.refund');
    expect(audit).toMatchObject({ details: expect.objectContaining({ reason: '旅客重複付款' }) });
    expect((await noticesOf(traveler.id, 'order.refunded')).some((n) => n.link === `/orders/${order.id}`)).toBe(true);
    expect((await noticesOf(guide.id, 'order.refunded')).some((n) => n.link === `/orders/${order.id}`)).toBe(true);
    // A pending order cannot be refunded.
    const pending = await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2031-03-04' });
    expect((await post(pending.id, { intent: 'refund', reason: '測試', confirmed: 'yes' })).status).toBe(409);
    expect((await orderRow(pending.id)).status).toBe('pending');
  });

  it('deletes and restores; a restore whose slot was booked since is refused', async () => {
    const order = await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2031-04-04' });
    expect((await post(order.id, { intent: 'delete', confirmed: 'yes' })).status).toBe(302);
    expect((await orderRow(order.id)).deletedAt).not.toBeNull();
    const taken = await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2031-04-04' });
    expect((await post(order.id, { intent: 'restore', confirmed: 'yes' })).status).toBe(409);
    await getDb().update(orders).set({ deletedAt: new Date() }).where(eq(orders.id, taken.id));
    expect((await post(order.id, { intent: 'restore', confirmed: 'yes' })).status).toBe(302);
    expect((await orderRow(order.id)).deletedAt).toBeNull();
    expect(await audits(order.id, 'order.delete')).toHaveLength(1);
    expect(await audits(order.id, 'order.restore')).toHaveLength(1);
  });

  it('keeps internal notes that only the admin page shows', async () => {
    const order = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id });
    expect((await post(order.id, { intent: 'note', body: '旅客來電說明情況' })).status).toBe(302);
    const page = await server.request(`/admin/orders/${order.id}`, { cookie: adminLogin.cookie, headers: ZH });
    expect(page.text).toContain('旅客來電說明情況');
    const travelerPage = await server.request(`/orders/${order.id}`, { cookie: (await loginAs(traveler)).cookie, headers: ZH });
    expect(travelerPage.status).toBe(200);
    expect(travelerPage.text).not.toContain('旅客來電說明情況');
    expect(await audits(order.id, 'order.note')).toHaveLength(1);
  });
});
