import { describe, expect, it } from 'vitest';
import { createCompletedOrder, createGuide, createOrder, createPhoto, createReview, createTraveler, createUser } from '~server/seed/factories';
import { getGuideForAdmin, listGuidesForAdmin } from '~/services/trust/guide-standing.server';
import type { UserRow } from '~/services/accounts/users.server';
import { loginAs } from '../support/api';
import { useTestServer } from '../support/http-server';
import { useTestDatabase } from '../support/test-database';

/**
 * Issue 19 point 3: the admin guide list and a guide's admin page show each guide's own photos, orders and
 * rating (they showed one set of figures for every guide). Two guides with different figures, and a third
 * with none, through the service and over real HTTP.
 */
useTestDatabase();
const server = useTestServer();

async function reviewedOrder(guide: UserRow, traveler: UserRow, rating: number) {
  const order = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id });
  await createReview({ orderId: order.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler', rating });
}

/** The texts of the cells of the table row for one guide. */
function rowCells(html: string, guideId: number): string[] {
  const match = new RegExp(`<tr[^>]*data-testid="admin-guide-${guideId}"[^>]*>([\\s\\S]*?)</tr>`).exec(html);
  expect(match, `row of guide ${guideId}`).not.toBeNull();
  return match![1]!
    .replace(/<!-- -->/g, '')
    .split(/<\/t[dh]>/)
    .map((cell) => cell.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim())
    .slice(0, -1);
}

/** The text of the <dd> that follows a <dt> with this label on the detail page. */
function fact(html: string, label: string): string {
  const match = new RegExp(`<dt>${label}</dt><dd>([\\s\\S]*?)</dd>`).exec(html);
  expect(match, `fact ${label}`).not.toBeNull();
  return match![1]!.replace(/<!-- -->/g, '').replace(/<[^>]+>/g, '').trim();
}

describe('admin guide figures (issue 19.3)', () => {
  it('each guide row and detail page counts that guide’s own photos, orders and reviews', async () => {
    const admin = await createUser({ type: 'admin' });
    const travelers = [await createTraveler(), await createTraveler(), await createTraveler()];
    const busy = await createGuide({ name: '忙碌導遊' });
    const quiet = await createGuide({ name: '安靜導遊' });
    const fresh = await createGuide({ name: '新進導遊' });

    // busy: 3 approved, 1 waiting and 1 rejected photo; 3 reviewed orders (5, 4, 4) and a deleted one that is not counted
    for (let i = 0; i < 3; i++) await createPhoto(busy.id, { status: 'approved' });
    await createPhoto(busy.id, { status: 'pending_review' });
    await createPhoto(busy.id, { status: 'rejected' });
    await reviewedOrder(busy, travelers[0]!, 5);
    await reviewedOrder(busy, travelers[1]!, 4);
    await reviewedOrder(busy, travelers[2]!, 4);
    await createOrder({ travelerId: travelers[0]!.id, guideId: busy.id, deletedAt: new Date() });
    // quiet: 1 approved photo, 2 waiting, 1 order, 1 review of 3
    await createPhoto(quiet.id, { status: 'approved' });
    await createPhoto(quiet.id, { status: 'pending_review' });
    await createPhoto(quiet.id, { status: 'pending_review' });
    await reviewedOrder(quiet, travelers[0]!, 3);
    // fresh: nothing at all

    const rows = await listGuidesForAdmin();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(busy.id)).toMatchObject({ approvedPhotos: 3, pendingPhotos: 1, orders: 3, rating: 4.3, reviewCount: 3 });
    expect(byId.get(quiet.id)).toMatchObject({ approvedPhotos: 1, pendingPhotos: 2, orders: 1, rating: 3, reviewCount: 1 });
    expect(byId.get(fresh.id)).toMatchObject({ approvedPhotos: 0, pendingPhotos: 0, orders: 0, rating: null, reviewCount: 0 });
    expect(await getGuideForAdmin(quiet.id)).toMatchObject({ approvedPhotos: 1, pendingPhotos: 2, orders: 1, rating: 3, reviewCount: 1 });

    const { cookie } = await loginAs(admin);
    const list = await server.request('/admin/guides', { cookie });
    expect(list.status).toBe(200);
    // Columns: name, standing, email, ID, profile, then photos, orders, rating.
    expect(rowCells(list.text, busy.id).slice(5)).toEqual(['3 通過 / 1 審核中', '3', '4.3 (3)']);
    expect(rowCells(list.text, quiet.id).slice(5)).toEqual(['1 通過 / 2 審核中', '1', '3.0 (1)']);
    expect(rowCells(list.text, fresh.id).slice(5)).toEqual(['0 通過 / 0 審核中', '0', '尚無評分']);

    const expected = [
      [busy, '3', '4.3 (3)'],
      [quiet, '1', '3.0 (1)'],
      [fresh, '0', '尚無評分'],
    ] as const;
    for (const [guide, orders, rating] of expected) {
      const page = await server.request(`/admin/guides/${guide.id}`, { cookie });
      expect(page.status).toBe(200);
      expect(fact(page.text, '訂單'), `orders of ${guide.name}`).toBe(orders);
      expect(fact(page.text, '評分'), `rating of ${guide.name}`).toBe(rating);
    }
  });
});
