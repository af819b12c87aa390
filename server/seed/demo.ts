import crypto from 'node:crypto';
import { and, count, eq, ne, sql } from 'drizzle-orm';
import { SUPPORTED_LOCALES } from '~/i18n/config';
import { addDays, todayInTaipei } from '~/lib/dates';
import { storeBlob } from '~/services/platform/blobs.server';
import { generateAvatar, generateLandscape, mulberry32 } from '~/services/platform/generated-images.server';
import { hashPassword } from '~/services/accounts/passwords.server';
import {
  demoBanners,
  demoGuides,
  demoGuideTours,
  demoTerms,
  demoTravelers,
  guideReviewComments,
  tourReviews,
  guidePhotoScenes,
  travelerLanguages,
  type ReviewLanguage,
} from './demo-content';
import { demoGuideTranslations } from './demo-guide-translations';
import { seedDemoPayment } from './demo-payments';
import {
  createAvailability,
  createBanner,
  createCompletedOrder,
  createGuide,
  createOrder,
  createReview,
  createTerms,
  createTraveler,
} from './factories';
import type { Database } from '~db/client';
import { ensureAdmin } from '../admin-account';
import { favorites, orderEvents, photos, terms, termsAgreements, users } from '~db/schema';
import { ORDER_STATUSES, type OrderStatus } from '~/lib/order-status';
import { slotStartsAt, TIME_SLOTS } from '~/lib/time-slots';

export const DEMO_PASSWORD = 'demo1234';
export const DEMO_EMAIL_DOMAIN = 'demo.travel-assistant.tw';
export const DEMO_ADMIN_EMAIL = `admin@${DEMO_EMAIL_DOMAIN}`;
/** Legal texts' first version (SPEC §3: version 1.0.0, last updated 3 June 2025). */
const TERMS_DATE = new Date('2025-06-03T00:00:00+08:00');
/** The addresses written in the demo legal texts; the seed puts SUPPORT_EMAIL (or the admin's) in their place. */
const DEMO_SUPPORT_ADDRESSES = ['support@travel-assistant.example', 'privacy@travel-assistant.example'];
/** Arbitrary constant naming the seed's advisory lock. */
const SEED_LOCK_ID = 7_020_603;

export interface SeedResult {
  seeded: boolean;
  guides: number;
  travelers: number;
  orders: number;
  reviews: number;
  /** Set when a demo admin was created with a generated password that must be shown once. */
  demoAdmin?: { email: string; password: string };
}

export async function isEmpty(db: Database): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  return (row?.n ?? 0) === 0;
}

/**
 * The demo marketplace: guides in many cities with availability for the next 60 days, travelers,
 * completed orders reviewed both ways, banners and the legal texts. Runs only on an empty database.
 * `admin` comes from ADMIN_EMAIL/ADMIN_PASSWORD; without it a demo admin with a random password is made.
 * `supportEmail` (SUPPORT_EMAIL) is the support and privacy address in the legal texts; default the admin's.
 *
 * Believable on purpose (issue 9): each guide's reviews are written for that guide's kind of tour, in the
 * reviewer's own language (an English or Japanese review only for a guide who speaks it), never the same
 * comment twice on one guide; every person has an illustrated face and every guide their own photos of the
 * kind of place they show; banners picture the place they link to; recent bookings and favorites make the
 * home page's trending lists real.
 */
export async function seedDemo(
  db: Database,
  options: { admin?: { email: string; password: string }; today?: string; supportEmail?: string } = {},
): Promise<SeedResult> {
  const notSeeded: SeedResult = { seeded: false, guides: 0, travelers: 0, orders: 0, reviews: 0 };
  if (!(await isEmpty(db))) return notSeeded;

  const rand = mulberry32(20250603);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const today = options.today ?? todayInTaipei();

  // Pictures first (CPU work, outside the transaction): a face per person, each guide's own photos of the
  // kind of place their tour goes to, and banner art of the place each banner links to.
  const people = demoGuides.length + demoTravelers.length;
  const avatarImages = await Promise.all(Array.from({ length: people }, (_, i) => generateAvatar(i + 1)));
  const photoCounts = demoGuides.map((_, i) => 1 + (i % 4)); // 1..4, the per-guide maximum
  const guidePhotoImages = await Promise.all(
    demoGuides.map((_, i) =>
      Promise.all(
        Array.from({ length: photoCounts[i]! }, (_, p) =>
          // Scenes of the guide's tour that their city has: no Taipei skyline in Tainan (issue 19).
          generateLandscape(1000 + i * 10 + p, 960, 640, guidePhotoScenes(demoGuideTours[i] ?? 'heritage', demoGuides[i]!.city, photoCounts[i]!)[p]),
        ),
      ),
    ),
  );
  const bannerImages = await Promise.all(demoBanners.map((b, i) => generateLandscape(100 + i, 1200, 400, b.scene)));
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const demoAdminPassword = options.admin ? undefined : crypto.randomBytes(9).toString('base64url');
  const admin = options.admin ?? { email: DEMO_ADMIN_EMAIL, password: demoAdminPassword! };
  const supportEmail = options.supportEmail ?? admin.email;

  const totals = await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    // Several instances may start at once on one PostgreSQL: the first takes the lock and seeds, the others
    // find the data there when they get it.
    await t.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_ID})`);
    if (!(await isEmpty(t))) return undefined;
    // One statement at a time: a transaction is a single connection.
    const avatarKeys: string[] = [];
    for (const img of avatarImages) avatarKeys.push(await storeBlob(img, 'image/webp', { db: t }));

    const guides = [];
    // Each guide's maximum group size (docs/decisions/016-group-size.md), by position: varied, the same on
    // every seed, and never below the 4 people of the largest demo order.
    const groupSizes = [8, 6, 12, 10, 4, 15, 20, 10, 6] as const;
    for (const [i, g] of demoGuides.entries()) {
      const registered = new Date(Date.parse(`${today}T10:00:00+08:00`) - (40 + i * 17) * 86_400_000);
      const guide = await createGuide(
        {
          name: g.name,
          email: `guide${String(i + 1).padStart(2, '0')}@${DEMO_EMAIL_DOMAIN}`,
          passwordHash,
          city: g.city,
          language: [...g.languages],
          price: g.price,
          maxGroupSize: groupSizes[i % groupSizes.length],
          bio: g.bio,
          description: g.description,
          // The one-line headline is the bio; most guides also wrote it and the introduction in en and ja.
          headline: g.bio,
          localized: demoGuideTranslations[g.name] ?? {},
          avatarKey: avatarKeys[i],
          registerDate: registered,
          emailVerifiedAt: registered,
          idVerifiedAt: registered,
        },
        t,
      );
      guides.push(guide);
      // About one slot in six is switched off, as real guides do.
      await createAvailability(guide.id, { from: today, days: 60, price: g.price, isAvailable: () => rand() > 0.17 }, t);
      const photoCount = photoCounts[i]!;
      const photoKeys: string[] = [];
      for (const img of guidePhotoImages[i]!) photoKeys.push(await storeBlob(img, 'image/webp', { db: t }));
      await t.insert(photos).values(
        Array.from({ length: photoCount }, (_, p) => ({
          guideId: guide.id,
          blobKey: photoKeys[p]!,
          // The last photo of every third guide still waits for review, so moderation has work.
          status: p === photoCount - 1 && i % 3 === 0 && photoCount > 1 ? ('pending_review' as const) : ('approved' as const),
          reviewedAt: registered,
        })),
      );
    }
    const travelers: Awaited<ReturnType<typeof createTraveler>>[] = [];
    for (const [i, tr] of demoTravelers.entries()) {
      travelers.push(
        await createTraveler(
          {
            name: tr.name,
            email: `${tr.emailLocalPart}@${DEMO_EMAIL_DOMAIN}`,
            passwordHash,
            avatarKey: avatarKeys[demoGuides.length + i],
            registerDate: new Date(Date.parse(`${today}T09:00:00+08:00`) - (200 + i * 9) * 86_400_000),
          },
          t,
        ),
      );
    }

    // Past tours, completed by both sides and reviewed both ways. A guide's reviews come from the comments for
    // their kind of tour in a language they speak, each used once, by a traveler who writes in that language.
    let orderCount = 0;
    let reviewCount = 0;
    const travelersOf = (lang: ReviewLanguage) => travelerLanguages[lang].map((index) => travelers[index]!);
    for (const [gi, guide] of guides.entries()) {
      const speaks = new Set(demoGuides[gi]!.languages);
      const comments = tourReviews[demoGuideTours[gi] ?? 'heritage'].filter(
        (c) => c.lang === 'zh-TW' || (c.lang === 'en' && speaks.has('en')) || (c.lang === 'ja' && speaks.has('ja')),
      );
      // Shuffle (seeded), then take as many as this guide had tours.
      const order = comments.map((c) => ({ c, k: rand() })).sort((a, b) => a.k - b.k).map((x) => x.c);
      const tours = Math.min(order.length, 1 + Math.floor(rand() * 5));
      for (let k = 0; k < tours; k++) {
        const fromTraveler = order[k]!;
        const traveler = pick(travelersOf(fromTraveler.lang));
        const people = 1 + Math.floor(rand() * 4);
        const date = addDays(today, -(7 + gi * 3 + k * 11));
        const booking = await createCompletedOrder(
          {
            travelerId: traveler.id,
            guideId: guide.id,
            date,
            timeSlot: pick(TIME_SLOTS),
            numberOfPeople: people,
            // One slot for the whole group (docs/decisions/010-price-rule.md).
            totalPrice: guide.price!,
            // Booked a few days to a few weeks before the tour.
            createdAt: new Date(Date.parse(`${date}T12:00:00+08:00`) - (3 + Math.floor(rand() * 25)) * 86_400_000),
          },
          t,
        );
        orderCount++;
        const bookedAt = booking.createdAt.getTime();
        const tourEvening = Date.parse(`${booking.date}T19:00:00+08:00`);
        // Paid at booking, charged when the guide confirmed, settled when both marked the tour done (issue 32).
        await seedDemoPayment(t, booking, {
          kind: 'settled',
          paidAt: new Date(bookedAt + 10 * 60_000),
          capturedAt: new Date(bookedAt + 5 * 36e5),
        });
        await t.insert(orderEvents).values(
          demoTimeline(booking.id, traveler.id, guide.id, [
            ['book', null, 'pending', 'traveler', bookedAt],
            ['confirm', 'pending', 'confirmed', 'guide', bookedAt + 5 * 36e5],
            ['complete_guide', 'confirmed', 'confirmed', 'guide', tourEvening],
            ['complete', 'confirmed', 'completed', 'traveler', tourEvening + 2 * 36e5],
          ]),
        );
        // Reviews are written in the days after the tour.
        const reviewedAt = (daysAfter: number) => new Date(Date.parse(`${booking.date}T20:00:00+08:00`) + daysAfter * 86_400_000 + Math.floor(rand() * 36e5));
        await createReview(
          {
            orderId: booking.id,
            reviewerId: traveler.id,
            revieweeId: guide.id,
            role: 'traveler',
            rating: fromTraveler.rating,
            comment: fromTraveler.comment,
            createdAt: reviewedAt(1),
          },
          t,
        );
        reviewCount++;
        if (rand() < 0.6) {
          const fromGuide = pick(guideReviewComments);
          await createReview(
            { orderId: booking.id, reviewerId: guide.id, revieweeId: traveler.id, role: 'guide', ...fromGuide, createdAt: reviewedAt(2) },
            t,
          );
          reviewCount++;
        }
      }
    }

    // Tours coming up, booked in the last days (pending or confirmed), and favorites travelers saved lately:
    // what the home page's trending guides and cities are made of.
    const nowMs = Date.now();
    for (let k = 0; k < 14; k++) {
      const gi = Math.floor(rand() * guides.length);
      const guide = guides[gi]!;
      const traveler = pick(travelers);
      const people = 1 + Math.floor(rand() * 3);
      // One booking a day (date = today + 3 + k), so no two ever claim the same guide, day and slot.
      const upcoming = await createOrder(
        {
          travelerId: traveler.id,
          guideId: guide.id,
          date: addDays(today, 3 + k),
          timeSlot: TIME_SLOTS[k % 3]!,
          numberOfPeople: people,
          totalPrice: guide.price!, // one slot for the group (decision 010)
          status: k % 3 === 0 ? 'pending' : 'confirmed',
          createdAt: new Date(nowMs - (1 + Math.floor(rand() * 12)) * 86_400_000),
        },
        t,
      );
      const bookedAt = upcoming.createdAt.getTime();
      await t.insert(orderEvents).values(
        demoTimeline(upcoming.id, traveler.id, guide.id, [
          ['book', null, 'pending', 'traveler', bookedAt],
          ...(upcoming.status === 'confirmed' ? [['confirm', 'pending', 'confirmed', 'guide', bookedAt + 3 * 36e5] as const] : []),
        ]),
      );
      // A pending order is paid and waits for its guide; a confirmed one has been charged (issue 32).
      const paidAt = new Date(bookedAt + 10 * 60_000);
      await seedDemoPayment(
        t,
        upcoming,
        upcoming.status === 'confirmed' ? { kind: 'captured', paidAt, capturedAt: new Date(bookedAt + 3 * 36e5) } : { kind: 'authorised', paidAt },
      );
    }

    // Two cancelled bookings: one before the guide answered (the card's authorisation given up), one by the traveler
    // two days before a confirmed tour (half refunded by the booking terms, the other half settled).
    for (const [k, story] of (['voided', 'refunded'] as const).entries()) {
      const guide = guides[Math.floor(rand() * guides.length)]!;
      const traveler = pick(travelers);
      const date = addDays(today, story === 'voided' ? 25 : 1);
      const timeSlot = TIME_SLOTS[2 - k]!;
      const bookedAt = nowMs - (4 + k) * 86_400_000;
      const cancelledAt = story === 'voided' ? bookedAt + 20 * 36e5 : slotStartsAt(date, timeSlot).getTime() - 48 * 36e5;
      const cancelled = await createOrder(
        { travelerId: traveler.id, guideId: guide.id, date, timeSlot, numberOfPeople: 2, totalPrice: guide.price!, status: 'cancelled', createdAt: new Date(bookedAt) },
        t,
      );
      await t.insert(orderEvents).values(
        demoTimeline(cancelled.id, traveler.id, guide.id, [
          ['book', null, 'pending', 'traveler', bookedAt],
          ...(story === 'refunded' ? [['confirm', 'pending', 'confirmed', 'guide', bookedAt + 3 * 36e5] as const] : []),
          ['cancel', story === 'refunded' ? 'confirmed' : 'pending', 'cancelled', 'traveler', cancelledAt],
        ]),
      );
      const paidAt = new Date(bookedAt + 10 * 60_000);
      await seedDemoPayment(
        t,
        cancelled,
        story === 'voided'
          ? { kind: 'voided', paidAt, voidedAt: new Date(cancelledAt) }
          : { kind: 'refunded', paidAt, capturedAt: new Date(bookedAt + 3 * 36e5), cancelledAt: new Date(cancelledAt) },
      );
    }
    for (const [ti, traveler] of travelers.entries()) {
      const count_ = 2 + (ti % 3);
      const chosen = new Set<number>();
      while (chosen.size < count_) chosen.add(guides[Math.floor(rand() * guides.length)]!.id);
      await t.insert(favorites).values(
        [...chosen].map((targetId) => ({
          userId: traveler.id,
          targetType: 'guide' as const,
          targetId,
          createdAt: new Date(nowMs - Math.floor(rand() * 25 * 86_400_000)),
        })),
      );
    }

    for (const [i, banner] of demoBanners.entries()) {
      const imageKey = await storeBlob(bannerImages[i]!, 'image/webp', { db: t });
      const { 'zh-TW': zh, en, ja } = banner.text;
      await createBanner(
        { ...zh, titleEn: en.title, subtitleEn: en.subtitle, titleJa: ja.title, subtitleJa: ja.subtitle, imageKey, linkUrl: banner.linkUrl, sortOrder: i + 1 },
        t,
      );
    }

    for (const [kind, byLocale] of Object.entries(demoTerms) as [keyof typeof demoTerms, (typeof demoTerms)['terms']][]) {
      for (const locale of SUPPORTED_LOCALES) {
        const text = byLocale[locale];
        const content = DEMO_SUPPORT_ADDRESSES.reduce((c, address) => c.replaceAll(address, supportEmail), text.content);
        await createTerms({ kind, locale, ...text, content, version: '1.0.0', isActive: true, createdAt: TERMS_DATE, updatedAt: TERMS_DATE }, t);
      }
    }

    // Every demo person agreed to these terms when they signed up (issue 24): logging in as one opens no terms
    // modal. Admins are never asked.
    const [agreedTerms] = await t
      .select({ id: terms.id })
      .from(terms)
      .where(and(eq(terms.kind, 'terms'), eq(terms.locale, 'zh-TW'), eq(terms.isActive, true)));
    const demoPeople = await t.select({ id: users.id }).from(users).where(ne(users.type, 'admin'));
    if (demoPeople.length) {
      await t.insert(termsAgreements).values(demoPeople.map((p) => ({ userId: p.id, termsId: agreedTerms?.id ?? null, version: '1.0.0', agreedAt: TERMS_DATE })));
    }

    await ensureAdmin(admin.email, admin.password, t);
    return { guides: guides.length, travelers: travelers.length, orders: orderCount, reviews: reviewCount };
  });
  if (!totals) return notSeeded;

  return {
    seeded: true,
    ...totals,
    demoAdmin: demoAdminPassword ? { email: DEMO_ADMIN_EMAIL, password: demoAdminPassword } : undefined,
  };
}

type DemoStatus = OrderStatus;
type DemoStep = readonly [action: string, from: DemoStatus | null, to: DemoStatus, by: 'traveler' | 'guide', at: number];

/** The order_events rows of a demo order, so its page shows a timeline like one booked through the app. */
function demoTimeline(orderId: number, travelerId: number, guideId: number, steps: readonly DemoStep[]) {
  return steps.map(([action, fromStatus, toStatus, actorRole, at]) => ({
    orderId,
    action,
    fromStatus,
    toStatus,
    actorId: actorRole === 'traveler' ? travelerId : guideId,
    actorRole,
    at: new Date(at),
  }));
}
