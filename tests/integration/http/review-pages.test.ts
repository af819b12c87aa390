import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, reviews, users } from '~db/schema';
import { todayInTaipei } from '~/lib/dates';
import { loginAs } from '../../support/api';
import { createCompletedOrder, createGuide, createOrder, createReview, createTraveler, createUser } from '~server/seed/factories';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/** The review pages as a browser without JavaScript uses them: the order page's form, /admin/reviews, the /me tab. */
useTestDatabase();
const server = useTestServer();

const post = (path: string, cookie: string | undefined, values: Record<string, string>) =>
  server.request(path, {
    method: 'POST',
    cookie,
    origin: server.baseUrl,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(values).toString(),
  });

describe(`review pages (${testDriver})`, () => {
  it('/orders/:id: the star form appears once both sides are done, posts without JS, keeps input on errors, then shows both reviews', async () => {
    const guide = await createGuide({ name: '林導遊' });
    const traveler = await createTraveler({ name: '陳旅客' });
    const pendingOrder = await createOrder({ travelerId: traveler.id, guideId: guide.id, status: 'confirmed', date: todayInTaipei() });
    const t = await loginAs(traveler);
    const waiting = await server.request(`/orders/${pendingOrder.id}`, { cookie: t.cookie });
    expect(waiting.status).toBe(200);
    expect(waiting.text).not.toContain('name="rating"');
    expect(waiting.text).toContain('雙方都標記行程完成後，就可以在這裡留下評價');

    const order = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id });
    const page = await server.request(`/orders/${order.id}`, { cookie: t.cookie });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toMatch(/<fieldset[^>]*class="field star-rating"[^>]*><legend[^>]*>評分<\/legend>/);
    expect(page.text.match(/name="rating"[^>]*type="radio"/g)?.length).toBe(5);
    expect(page.text).toContain('5 顆星');
    // The one summary component: the same facts rows as /booking-success.
    expect(page.text).toContain('<dl class="facts">');

    const bad = await post(`/orders/${order.id}`, t.cookie, { intent: 'review', rating: '9', comment: '導覽很用心' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('評分必須是 1 到 5 顆星');
    expect(bad.text).toContain('導覽很用心</textarea>');

    const sent = await post(`/orders/${order.id}`, t.cookie, { intent: 'review', rating: '4', comment: '導覽很用心' });
    expect(sent.status).toBe(302);
    expect(sent.headers.get('location')).toBe(`/orders/${order.id}#order-reviews-title`);
    const after = await server.request(`/orders/${order.id}`, { cookie: t.cookie });
    expect(after.text).toContain('旅客 陳旅客 評價導遊 林導遊');
    expect(after.text).toContain('導覽很用心');
    expect(after.text).not.toContain('name="rating"');

    const again = await post(`/orders/${order.id}`, t.cookie, { intent: 'review', rating: '5' });
    expect(again.status).toBe(409);
    expect(again.text).toContain('此訂單已評價過，無法再次評價');

    const g = await loginAs(guide);
    const guideSent = await post(`/orders/${order.id}`, g.cookie, { intent: 'review', rating: '5', comment: '準時又有禮貌' });
    expect(guideSent.status).toBe(302);
    const both = await server.request(`/orders/${order.id}`, { cookie: g.cookie });
    expect(both.text).toContain('導遊 林導遊 評價旅客 陳旅客');
    expect(both.text).toContain('旅客 陳旅客 評價導遊 林導遊');

    const stranger = await loginAs(await createTraveler());
    expect((await server.request(`/orders/${order.id}`, { cookie: stranger.cookie })).status).toBe(403);
    const refused = await post(`/orders/${order.id}`, stranger.cookie, { intent: 'review', rating: '5' });
    expect(refused.status).toBe(403);
    expect(await getDb().select().from(reviews).where(eq(reviews.orderId, order.id))).toHaveLength(2);
  });

  it('/booking-success shows the same summary', async () => {
    const guide = await createGuide({ name: '王導遊', price: 2800 });
    const traveler = await createTraveler();
    const order = await createOrder({ travelerId: traveler.id, guideId: guide.id, totalPrice: 2800 });
    const { cookie } = await loginAs(traveler);
    const page = await server.request(`/booking-success?order=${order.id}`, { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<dl class="facts">');
    expect(page.text).toContain(`#<!-- -->${order.id}`);
    expect(page.text).toContain('NT$2,800');
  });

  it('/admin/reviews: search, hide with a reason (required), unhide, delete; audited; others 403', async () => {
    const guide = await createGuide({ name: '張導遊' });
    const traveler = await createTraveler({ name: '李旅客' });
    const order = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id });
    const review = await createReview({ orderId: order.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler', rating: 2, comment: '不太準時' });
    const adminUser = await createUser({ type: 'admin' });
    const { cookie } = await loginAs(adminUser);

    const page = await server.request('/admin/reviews?keyword=' + encodeURIComponent('準時'), { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('不太準時');
    expect(page.text).toContain(`href="/orders/${order.id}"`);
    expect(page.text).toContain('李旅客');
    expect(page.text).toContain('張導遊');
    expect((await server.request('/admin/reviews?keyword=nothing-like-this', { cookie })).text).toContain('沒有符合的評價');

    const noReason = await post('/admin/reviews', cookie, { intent: 'hide', reviewId: String(review.id), hiddenReason: '' });
    expect(noReason.status).toBe(400);
    expect(noReason.text).toContain('隱藏評價時請填寫原因');

    const hidden = await post('/admin/reviews?keyword=x', cookie, { intent: 'hide', reviewId: String(review.id), hiddenReason: '與行程無關' });
    expect(hidden.status).toBe(302);
    expect(hidden.headers.get('location')).toBe('/admin/reviews?keyword=x');
    const [afterHide] = await getDb().select().from(reviews).where(eq(reviews.id, review.id));
    expect(afterHide).toMatchObject({ isHidden: true, hiddenReason: '與行程無關' });
    const [rated] = await getDb().select({ count: users.ratingCount }).from(users).where(eq(users.id, guide.id));
    expect(rated!.count).toBe(0);
    expect((await server.request('/admin/reviews', { cookie })).text).toContain('隱藏原因：與行程無關');

    expect((await post('/admin/reviews', cookie, { intent: 'unhide', reviewId: String(review.id) })).status).toBe(302);
    expect((await getDb().select().from(reviews).where(eq(reviews.id, review.id)))[0]!.isHidden).toBe(false);
    // Deleting asks first: without JS the first press is the confirmation step, and nothing is deleted yet.
    const asked = await post('/admin/reviews', cookie, { intent: 'delete', reviewId: String(review.id) });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('data-testid="confirm-delete-review"');
    expect(asked.text).toContain('確定要刪除這則評價嗎？');
    expect(asked.text).toContain('name="confirmed" value="yes"');
    expect(await getDb().select().from(reviews).where(eq(reviews.id, review.id))).toHaveLength(1);
    expect((await post('/admin/reviews', cookie, { intent: 'delete', reviewId: String(review.id), confirmed: 'yes' })).status).toBe(302);
    expect(await getDb().select().from(reviews).where(eq(reviews.id, review.id))).toHaveLength(0);
    const trail = await getDb().select().from(auditLogs).where(eq(auditLogs.actorId, adminUser.id));
    expect(trail.map((a) => a.action)).toEqual(['review.hide', 'review.unhide', 'review.delete']);

    for (const who of [traveler, guide]) {
      const other = await loginAs(who);
      expect((await server.request('/admin/reviews', { cookie: other.cookie })).status).toBe(403);
      expect((await post('/admin/reviews', other.cookie, { intent: 'delete', reviewId: '1' })).status).toBe(403);
    }
    const anonymous = await server.request('/admin/reviews');
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toMatch(/^\/login\?redirectTo=/);
  });

  it('/me reviews tab: received (hidden left out) and given (own hidden marked), stars and Taiwan time', async () => {
    const guide = await createGuide({ name: '周導遊' });
    const traveler = await createTraveler({ name: '吳旅客' });
    const order = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id });
    const second = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id });
    await createReview({ orderId: order.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler', rating: 5, comment: '公開的評語', createdAt: new Date('2026-03-01T16:30:00Z') });
    await createReview({ orderId: second.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler', rating: 1, comment: '被隱藏的評語', isHidden: true, hiddenReason: '不當' });
    await createReview({ orderId: order.id, reviewerId: guide.id, revieweeId: traveler.id, role: 'guide', rating: 4, comment: '很好的旅客' });

    const g = await loginAs(guide);
    const guidePage = await server.request('/me?tab=reviews', { cookie: g.cookie });
    expect(guidePage.status).toBe(200);
    expect(guidePage.text).toContain('公開的評語');
    expect(guidePage.text).not.toContain('被隱藏的評語');
    // 16:30 UTC is 00:30 the next day in Taipei: the day there, without the time (issue 19).
    expect(guidePage.text).toContain('<time dateTime="2026-03-01T16:30:00.000Z">2026年3月2日</time>');
    // The same date wherever the review is listed: the guide's public page and the order page.
    const publicPage = await server.request(`/guides/${guide.id}`);
    expect(publicPage.text).toMatch(/<time dateTime="2026-03-01T16:30:00.000Z"[^>]*>2026年3月2日<\/time>/);
    const orderPage = await server.request(`/orders/${order.id}`, { cookie: g.cookie });
    expect(orderPage.text).toContain('<time dateTime="2026-03-01T16:30:00.000Z">2026年3月2日</time>');
    const english = await server.request(`/guides/${guide.id}`, { headers: { 'accept-language': 'en' } });
    expect(english.text).toMatch(/<time dateTime="2026-03-01T16:30:00.000Z"[^>]*>March 2, 2026<\/time>/);

    const t = await loginAs(traveler);
    const travelerPage = await server.request('/me?tab=reviews', { cookie: t.cookie });
    expect(travelerPage.text).toContain('被隱藏的評語');
    expect(travelerPage.text).toContain('很好的旅客');
  });
});
