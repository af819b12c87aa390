import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb, type Database } from '~db/client';
import { reviews } from '~db/schema';
import { refreshGuideRating } from '~/services/catalogue/ratings.server';
import { AppError } from '~/services/platform/errors.server';
import { guideSearchSchema, type GuideSearchInput } from '~/schemas/guide-search';
import { getGuideDetail, guideCoverage } from '~/services/catalogue/guides.server';
import { topRatedGuides } from '~/services/catalogue/trending.server';
import { searchGuides } from '~/services/catalogue/search.server';

const listGuides = (input: GuideSearchInput = {}) => searchGuides(guideSearchSchema.parse(input));
import {
  createAvatar,
  createCompletedOrder,
  createGuide,
  createPhoto,
  createReview,
  createTraveler,
} from '~server/seed/factories';
import { testDriver, useTestDatabase } from '../support/test-database';
import { blobUrl } from '~/services/platform/blobs.server';

useTestDatabase();

/** Reviews a guide through a completed order, as the real flow would leave it. */
async function review(guideId: number, rating: number, options: { hidden?: boolean; daysAgo?: number } = {}) {
  const traveler = await createTraveler();
  // Each order a past day of its own (the factory's): a completed tour keeps its slot.
  const order = await createCompletedOrder({ travelerId: traveler.id, guideId });
  return createReview({
    orderId: order.id,
    reviewerId: traveler.id,
    revieweeId: guideId,
    role: 'traveler',
    rating,
    isHidden: options.hidden ?? false,
    createdAt: new Date(Date.now() - (options.daysAgo ?? 5) * 86_400_000),
  });
}

describe(`guides service (${testDriver})`, () => {
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    // 23 public guides, registered one day apart so "newest first" is well defined.
    for (let i = 0; i < 23; i++) {
      const g = await createGuide({
        name: `導遊 ${String(i + 1).padStart(2, '0')}`,
        city: i % 2 ? 'tainan' : 'hualien',
        registerDate: new Date(Date.UTC(2025, 0, 1 + i)),
      });
      ids[`g${i + 1}`] = g.id;
    }
    // Not public (issue 11's publishable rule): an incomplete profile, an unverified email, a guide suspended by
    // an admin, a blocked, archived or suspended account, and a traveler. A new guide needs no approval.
    ids.pending = (await createGuide({ name: '待審導遊', description: '' })).id;
    ids.unverifiedEmail = (await createGuide({ name: '未驗證導遊', isEmailVerified: false })).id;
    ids.guideSuspended = (await createGuide({ name: '停業導遊', guideStatus: 'suspended' })).id;
    ids.blocked = (await createGuide({ name: '封鎖導遊', blockedAt: new Date() })).id;
    ids.archived = (await createGuide({ name: '封存導遊', deletedAt: new Date() })).id;
    ids.suspended = (await createGuide({ name: '停權導遊', status: 'suspended' })).id;
    ids.traveler = (await createTraveler({ name: '旅客' })).id;

    await review(ids.g1!, 5);
    await review(ids.g1!, 4, { daysAgo: 2 });
    await review(ids.g1!, 1, { hidden: true }); // hidden reviews do not count
    await review(ids.g2!, 3);
    await review(ids.g3!, 5, { daysAgo: 1 });
  });

  it('lists public guides newest first, ten per page, with pagination totals', async () => {
    const first = await listGuides({ page: 1 });
    expect(first.guides).toHaveLength(10);
    expect(first.guides[0]!.name).toBe('導遊 23');
    expect(first.pagination).toEqual({ page: 1, limit: 10, total: 23, totalPages: 3, hasNext: true, hasPrev: false });

    const last = await listGuides({ page: 3 });
    expect(last.guides.map((g) => g.name)).toEqual(['導遊 03', '導遊 02', '導遊 01']);
    expect(last.pagination).toMatchObject({ hasNext: false, hasPrev: true });

    const beyond = await listGuides({ page: 9 });
    expect(beyond.guides).toEqual([]);
  });

  it('never lists incomplete, unverified, suspended, blocked or archived guides, nor travelers', async () => {
    const all = await listGuides({ limit: 100 });
    const names = all.guides.map((g) => g.name);
    expect(names).toHaveLength(23);
    for (const hidden of ['待審導遊', '未驗證導遊', '停業導遊', '封鎖導遊', '封存導遊', '停權導遊', '旅客']) expect(names).not.toContain(hidden);
    await expect(getGuideDetail(ids.blocked!)).rejects.toMatchObject({ code: 'GUIDE_NOT_FOUND' });
    await expect(getGuideDetail(ids.traveler!)).rejects.toBeInstanceOf(AppError);
  });

  it('averages visible traveler reviews only', async () => {
    const all = await listGuides({ limit: 100 });
    const byName = new Map(all.guides.map((g) => [g.name, g]));
    expect(byName.get('導遊 01')).toMatchObject({ averageRating: 4.5, reviewCount: 2 });
    expect(byName.get('導遊 02')).toMatchObject({ averageRating: 3, reviewCount: 1 });
    expect(byName.get('導遊 04')).toMatchObject({ averageRating: null, reviewCount: 0 });
  });

  it('clamps the page size to 100 and refuses 0', async () => {
    expect((await listGuides({ limit: 1000 })).pagination.limit).toBe(100);
    expect(guideSearchSchema.safeParse({ limit: 0 }).success).toBe(false);
  });

  it('features the best-rated guides by the Bayesian rating (the home page)', async () => {
    const featured = await topRatedGuides(2);
    // 4.5 from two (3.79) beats 5.0 from one (3.75) once five imaginary 3.5-star reviews weigh in.
    expect(featured.map((g) => g.name)).toEqual(['導遊 01', '導遊 03']);
  });

  it('counts public guides and their cities', async () => {
    expect(await guideCoverage()).toEqual({ guides: 23, cities: 2 });
  });

  it('shows a guide with approved photos and visible reviews, newest first', async () => {
    const guideId = ids.g1!;
    const approved = await createPhoto(guideId, { seed: 1, status: 'approved' });
    await createPhoto(guideId, { seed: 2, status: 'pending_review' });
    await createPhoto(guideId, { seed: 3, status: 'rejected' });
    const avatarGuide = await createGuide({ name: '有頭像', avatarKey: await createAvatar(200) });

    const detail = await getGuideDetail(guideId);
    expect(detail.ratingDistribution).toEqual([{ stars: 5, count: 1 }, { stars: 4, count: 1 }, { stars: 3, count: 0 }, { stars: 2, count: 0 }, { stars: 1, count: 0 }]);
    expect(detail.guide).toMatchObject({ name: '導遊 01', averageRating: 4.5, reviewCount: 2 });
    expect(detail.photos).toEqual([{ id: approved.id, url: blobUrl(approved.blobKey) }]);
    // The hidden 1-star review is left out; the review from 2 days ago comes before the one from 5 days ago.
    expect(detail.reviews.map((r) => r.rating)).toEqual([4, 5]);
    expect(detail.reviews.every((r) => r.reviewerName.startsWith('使用者'))).toBe(true);

    const withAvatar = await getGuideDetail(avatarGuide.id);
    expect(withAvatar.guide.avatarUrl).toMatch(/^\/uploads\/[\w-]{43}\.webp$/);
  });

  it('refreshGuideRating keeps the stored figures in step when a review is hidden', async () => {
    const guide = await createGuide({ name: '評分導遊' });
    const kept = await review(guide.id, 5);
    const hidden = await review(guide.id, 1);
    expect((await getGuideDetail(guide.id)).guide).toMatchObject({ averageRating: 3, reviewCount: 2 });
    await getDb().transaction(async (tx) => {
      await tx.update(reviews).set({ isHidden: true }).where(eq(reviews.id, hidden.id));
      expect(await refreshGuideRating(tx as unknown as Database, guide.id)).toEqual({ average: 5, count: 1 });
    });
    expect((await getGuideDetail(guide.id)).guide).toMatchObject({ averageRating: 5, reviewCount: 1 });
    expect(kept.rating).toBe(5);
  });
});
