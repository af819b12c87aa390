import { describe, expect, it } from 'vitest';
import { createCompletedOrder, createGuide, createOrder, createReview, createTraveler, createUser } from '~server/seed/factories';
import { adminDashboardFigures } from '~/services/admin/admin-dashboard.server';
import { recordAudit } from '~/services/platform/audit.server';
import { loginAs } from '../support/api';
import { useTestServer } from '../support/http-server';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Issue 22: the admin console as a whole — the dashboard's month figures equal counts made here, every link of
 * every admin page answers (a crawler, as an admin, following /admin links and checking every other same-site
 * link once), and the audit log filters.
 */
useTestDatabase();
const server = useTestServer();

const hrefs = (html: string) =>
  [...html.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&')).filter((h) => h.startsWith('/') && !h.startsWith('//'));

describe(`admin console (${testDriver})`, () => {
  it('counts bookings and gross booking value of this Taiwan month against the last', async () => {
    const traveler = await createTraveler();
    const guide = await createGuide();
    const at = (iso: string) => new Date(iso);
    // Taiwan is UTC+8: 2040-04-30T17:00Z is already 1 May in Taipei; 2040-04-30T15:00Z is still April.
    await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2040-06-01', totalPrice: 1000, createdAt: at('2040-04-30T17:00:00Z') });
    await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2040-06-02', totalPrice: 2500, createdAt: at('2040-05-10T03:00:00Z'), status: 'confirmed' });
    await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2040-06-03', totalPrice: 9999, createdAt: at('2040-05-11T03:00:00Z'), status: 'cancelled' });
    await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2040-06-04', totalPrice: 7777, createdAt: at('2040-05-12T03:00:00Z'), deletedAt: at('2040-05-12T04:00:00Z') });
    await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2040-06-05', totalPrice: 400, createdAt: at('2040-04-30T15:00:00Z') });
    await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2040-06-06', totalPrice: 600, createdAt: at('2040-04-01T00:00:00Z'), status: 'refunded' });
    const figures = await adminDashboardFigures(undefined, at('2040-05-20T00:00:00Z'));
    expect(figures.thisMonth).toEqual({ bookings: 3, grossValue: 3500 });
    expect(figures.lastMonth).toEqual({ bookings: 2, grossValue: 400 });
  });

  it('shows the dashboard with users by role, new this week, orders by status and the review queues', async () => {
    const admin = await createUser({ type: 'admin' });
    const { cookie } = await loginAs(admin);
    const res = await server.request('/admin', { cookie, headers: { 'accept-language': 'en' } });
    expect(res.status).toBe(200);
    for (const id of ['users-by-type', 'new-this-week', 'orders-by-status', 'month-figures', 'stat-pending-id']) expect(res.text).toContain(`data-testid="${id}"`);
    expect(res.text).toContain('href="/admin/users?type=guide"');
    expect(res.text).toContain('href="/admin/orders?status=pending"');
  });

  it('finds no link on any admin page that answers 404 (or fails)', async () => {
    const admin = await createUser({ type: 'admin', name: '巡檢管理員' });
    const traveler = await createTraveler({ name: '巡檢旅客' });
    const guide = await createGuide({ name: '巡檢導遊' });
    const done = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id });
    await createReview({ orderId: done.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler', rating: 5 });
    await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2033-01-01' });
    await recordAudit({ actorId: admin.id, action: 'user.block', targetType: 'user', targetId: traveler.id });
    await recordAudit({ actorId: admin.id, action: 'order.note', targetType: 'order', targetId: done.id });
    const { cookie } = await loginAs(admin);

    const seen = new Map<string, number>();
    const queue = ['/admin'];
    const broken: string[] = [];
    while (queue.length > 0 && seen.size < 400) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      const res = await server.request(path, { cookie });
      seen.set(path, res.status);
      if (res.status >= 400) {
        broken.push(`${path} → ${res.status}`);
        continue;
      }
      // Follow admin pages (at most a few of each list's pages and filters); check other links once.
      if (!path.startsWith('/admin') || res.status !== 200) continue;
      for (const href of hrefs(res.text)) {
        const [pathname] = href.split('#');
        if (pathname && !seen.has(pathname) && !queue.includes(pathname)) queue.push(pathname);
      }
    }
    expect(broken).toEqual([]);
    const adminPages = [...seen.keys()].filter((p) => p.startsWith('/admin'));
    for (const page of ['/admin/users', '/admin/users/archived', `/admin/users/${traveler.id}`, '/admin/orders', `/admin/orders/${done.id}`, '/admin/logs']) {
      expect(adminPages, page).toContain(page);
    }
  });

  it('filters the audit log by actor (name, e-mail or number; an old actorId link too), action prefix, object and day', async () => {
    const admin = await createUser({ type: 'admin', name: '林審核員', email: 'lin-audit@example.test' });
    const other = await createUser({ type: 'admin', name: '陳財務', email: 'chen-audit@example.test' });
    await recordAudit({ actorId: admin.id, action: 'user.archive', targetType: 'user', targetId: 424242 });
    await recordAudit({ actorId: other.id, action: 'order.refund', targetType: 'order', targetId: 434343 });
    const { cookie } = await loginAs(admin);
    // The entries' actions, as the page words them (issue 35: no codes).
    const rows = async (q: string, lng = 'zh-TW') => {
      const res = await server.request(`/admin/logs?${q}`, { cookie, headers: { 'accept-language': lng } });
      expect(res.status).toBe(200);
      return [...res.text.matchAll(/<strong class="audit-action">([^<]+)<\/strong>/g)].map((m) => m[1]);
    };
    expect(await rows(`actorId=${admin.id}`)).toEqual(['封存帳號']);
    expect(await rows(`actor=${admin.id}`)).toEqual(['封存帳號']);
    expect(await rows(`actor=${encodeURIComponent('林審核')}`)).toEqual(['封存帳號']);
    expect(await rows(`actor=${encodeURIComponent('CHEN-AUDIT@example')}`, 'en')).toEqual(['Order refunded']);
    expect(await rows(`actor=${encodeURIComponent('無此人')}`)).toEqual([]);
    expect(await rows(`actor=${encodeURIComponent('陳財務')}&action=order.`, 'ja')).toEqual(['予約を返金']);
    expect(await rows(`actorId=${other.id}&action=user.`)).toEqual([]);
    expect(await rows('targetType=user&targetId=424242')).toEqual(['封存帳號']);
    expect(await rows(`actorId=${admin.id}&to=2000-01-01`)).toEqual([]);
    // An old link fills the actor box with the number; the box takes a name and says so.
    const old = await server.request(`/admin/logs?actorId=${admin.id}`, { cookie });
    expect(/<input[^>]*name="actor"[^>]*>/.exec(old.text)?.[0]).toContain(`value="${admin.id}"`);
    expect(old.text).toContain('姓名、電子郵件或使用者編號');
    const traveler = await loginAs(await createTraveler());
    expect((await server.request('/admin/logs', { cookie: traveler.cookie })).status).toBe(403);
    expect((await server.request('/admin/logs')).status).toBe(302);
  });

  it('shows what changed as "field: before → after" lines with values in words, never JSON', async () => {
    const admin = await createUser({ type: 'admin', name: '變更管理員' });
    await recordAudit({
      actorId: admin.id,
      action: 'banner.update',
      targetType: 'banner',
      targetId: 77,
      details: { before: { title: '春季', isActive: false, linkUrl: null, sortOrder: 1 }, after: { title: '夏季', isActive: true, linkUrl: `/guides?q=${'長'.repeat(200)}`, sortOrder: 1 } },
    });
    await recordAudit({ actorId: admin.id, action: 'user.role_change', targetType: 'user', targetId: admin.id, details: { name: '某人', from: 'traveler', to: 'guide' } });
    const { cookie } = await loginAs(admin);
    const lines = async (lng: string) => {
      const res = await server.request(`/admin/logs?actor=${admin.id}`, { cookie, headers: { 'accept-language': lng } });
      const shown = /<ol class="audit-list"[\s\S]*?<\/ol>/.exec(res.text)?.[0] ?? '';
      expect(shown).toContain('audit-entry');
      expect(shown).not.toContain('banner.update');
      expect(shown).not.toMatch(/\{&quot;|\{"/);
      return [...res.text.matchAll(/<li data-testid="audit-change">([^<]+)<\/li>/g)].map((m) => m[1]!.replace(/&gt;/g, '>'));
    };
    const zh = await lines('zh-TW');
    expect(zh).toContain('角色：旅客 → 導遊');
    expect(zh).toContain('姓名：某人');
    expect(zh).toContain('標題：春季 → 夏季');
    expect(zh).toContain('顯示中：否 → 是');
    const link = zh.find((l) => l.startsWith('連結：'))!;
    expect(link).toMatch(/^連結：— → \/guides\?q=長+…$/);
    expect(zh.some((l) => l.startsWith('順序'))).toBe(false);
    const en = await lines('en');
    expect(en).toContain('Role: Traveler → Guide');
    expect(en).toContain('Shown: No → Yes');
  });
});
