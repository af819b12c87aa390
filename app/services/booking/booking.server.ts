import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { getDb, type Database } from '~db/client';
import { preparedStatement } from '~db/prepared';
import { availabilitySlots, orderEvents, orders, payments, users } from '~db/schema';
import { isBookableTime } from '~/lib/time-slots';
import type { BookingInput } from '~/schemas/booking';
import type { OrderPaymentView } from '~/schemas/payments';
import type { Viewer } from '../platform/access.server';
import { agreedToCurrentTerms, mustAgreeToTerms } from '../accounts/terms.server';
import { assertInWindow } from '../catalogue/availability.server';
import { isPublishableGuide, publishableFactColumns } from '../catalogue/guide-publishable.server';
import { now as clockNow } from '../platform/clock.server';
import { countEvent } from '../platform/counters.server';
import type { LimitLog } from '../platform/rate-limit.server';
import { AppError, pgErrorCode, UNIQUE_VIOLATION } from '../platform/errors.server';
import { noticeValues, noticeWrites } from '../messaging/notifications.server';
import { deliverOrderNotices, orderNotice, orderNoticeFacts, type PendingNotice } from '../messaging/order-notices.server';
import { toOrderView, type OrderView } from './orders.server';
import { bookingMoneyTerms, paymentView } from '../payments/order-payments.server';
import { newMerchantTradeNo } from '../payments/payments.server';

/** The guide, read beside the traveler in one statement. */
const guideUsers = alias(users, 'guide');

/**
 * Only what the booking reads of the two (each column of a selection costs drizzle time to write out on every
 * booking: the whole rows were a third of its statement-building time).
 */
const travelerColumns = {
  id: users.id,
  name: users.name,
  type: users.type,
  isEmailVerified: users.isEmailVerified,
  blockedAt: users.blockedAt,
  deletedAt: users.deletedAt,
  // Booking needs an agreement to the current terms of service (issue 35), read in the same statement.
  agreedToTerms: agreedToCurrentTerms(users.id),
};
const guideColumns = {
  ...publishableFactColumns(guideUsers),
  id: guideUsers.id,
  name: guideUsers.name,
  email: guideUsers.email,
  locale: guideUsers.locale,
  maxGroupSize: guideUsers.maxGroupSize,
};

/** The traveler (locked: NO KEY UPDATE, see bookingChecks) and the guide, in one statement. */
const travelerAndGuide = preparedStatement('booking_traveler_and_guide', (db) =>
  db
    .select({ traveler: travelerColumns, guide: guideColumns })
    .from(users)
    .leftJoin(guideUsers, eq(guideUsers.id, sql.placeholder('guideId')))
    .where(eq(users.id, sql.placeholder('travelerId')))
    .for('no key update', { of: users }),
);

/** Every column of a table, read from a WITH item that returned the whole row. */
function columnsOf<Table extends typeof orders | typeof payments>(table: Table) {
  const names = Object.keys(getTableColumns(table)) as (keyof Table['$inferSelect'])[];
  return <T extends Record<(typeof names)[number], unknown>>(item: T) =>
    Object.fromEntries(names.map((name) => [name, item[name]])) as Pick<T, (typeof names)[number]>;
}
const orderColumnsOf = columnsOf(orders);
const paymentColumnsOf = columnsOf(payments);

/** The order's values, shared by both ways of placing it. */
function placedOrderItem(db: Database) {
  return db.$with('placed').as(
    db
      .insert(orders)
      .overridingSystemValue()
      .values({
        id: sql.placeholder('id'),
        travelerId: sql.placeholder('travelerId'),
        guideId: sql.placeholder('guideId'),
        date: sql.placeholder('date'),
        timeSlot: sql.placeholder('timeSlot'),
        numberOfPeople: sql.placeholder('numberOfPeople'),
        note: sql.placeholder('note'),
        status: 'pending',
        totalPrice: sql.placeholder('totalPrice'),
        commissionPercent: sql.placeholder('commissionPercent'),
        termsAcceptedAt: sql.placeholder('now'),
        createdAt: sql.placeholder('now'),
      })
      .returning(),
  );
}

const bookEvent = (db: Database) =>
  db.$with('event', {}).as(
    sql`insert into ${orderEvents} (order_id, action, from_status, to_status, actor_id, actor_role, at)
      select id, 'book', null, 'pending', ${sql.placeholder('travelerId')}, 'traveler', ${sql.placeholder('nowText')}::timestamptz from placed`,
  );

/**
 * A free tour: the order, the first event of its timeline and the guide's notice (notification, mail, pushes), one
 * statement. The order's id was drawn beforehand (`slotAndCounts`), so the notice, which names it, is worded before
 * the insert.
 */
const placeFreeOrder = preparedStatement('booking_place_order', (db) => {
  const placed = placedOrderItem(db);
  const notice = noticeWrites(db, true);
  return db
    .with(placed, bookEvent(db), ...notice.items)
    .select({ order: orderColumnsOf(placed), notification: notice.notification, woken: notice.woken })
    .from(placed)
    .crossJoin(notice.written);
});

/**
 * A paid tour (issue 32): the order, its first event and its unpaid payment, one statement. The guide hears of it
 * once the payment is authorised (payment-jobs.server.ts acceptPaymentEvent); the slot is held meanwhile, for the
 * payment window.
 */
const placePaidOrder = preparedStatement('booking_place_paid_order', (db) => {
  const placed = placedOrderItem(db);
  const payment = db.$with('payment').as(
    db
      .insert(payments)
      .values({
        orderId: sql.placeholder('id'),
        provider: sql.placeholder('provider'),
        amount: sql.placeholder('totalPrice'),
        merchantTradeNo: sql.placeholder('merchantTradeNo'),
        createdAt: sql.placeholder('now'),
        updatedAt: sql.placeholder('now'),
      })
      .returning(),
  );
  return db
    .with(placed, bookEvent(db), payment)
    .select({ order: orderColumnsOf(placed), payment: paymentColumnsOf(payment) })
    .from(placed)
    .crossJoin(payment);
});

/** A booking's answer: the order, and its payment to make (null for a free tour: the guide is told at once). */
export interface Booked {
  order: OrderView;
  payment: OrderPaymentView | null;
}

/**
 * Booking (issue 10): one service for the /booking/:guideId form and POST /api/v1/orders.
 *
 * Price (docs/decisions/010-price-rule.md): the order's total is the guide's profile price at the moment of
 * booking, for one slot and the whole group, whatever the number of people; a client's slot price is not charged.
 * The group is at most the guide's maximum group size (docs/decisions/016-group-size.md): more people is
 * 400 VALIDATION_ERROR on numberOfPeople, with a message that names the maximum.
 *
 * Double booking: the insert alone decides. The partial unique index `orders_no_double_booking` (one pending,
 * confirmed or completed order per guide, date and slot) refuses the second of two racing inserts, which becomes
 * 409 TIME_CONFLICT; there is no check-then-insert window. A slot whose bookings have closed (3 hours before it
 * begins, app/lib/time-slots.ts) is 409 TIME_CONFLICT with its own message. A slot the traveler already holds
 * (a live order of theirs) is 409 ALREADY_BOOKED naming that order, decided under the traveler's row lock (see
 * slotAndCounts): the unique index's refusal then always means another traveler's order.
 */
export async function bookSlot(
  viewer: Viewer,
  input: BookingInput,
  db: Database = getDb(),
  now: Date = clockNow(),
  limits?: LimitLog,
): Promise<Booked> {
  if (input.userId !== undefined && input.userId !== viewer.id) throw new AppError('FORBIDDEN');
  let pending: PendingNotice[] = [];
  let booked: Booked;
  let usage: BookingChecks | undefined;
  try {
    booked = await db.transaction(async (tx) => {
      const [pair] = await travelerAndGuide(tx, { travelerId: viewer.id, guideId: input.guideId });
      const traveler = pair?.traveler;
      const guide = pair?.guide ?? undefined;
      if (!traveler || traveler.deletedAt || traveler.blockedAt) throw new AppError('TRAVELER_NOT_FOUND');
      if (traveler.type !== 'traveler') throw new AppError('FORBIDDEN');
      if (!traveler.isEmailVerified) throw new AppError('EMAIL_NOT_VERIFIED');
      if (!traveler.agreedToTerms) throw mustAgreeToTerms();
      if (!isPublishableGuide(guide) || guide.id === traveler.id) throw new AppError('GUIDE_NOT_FOUND');
      if (input.numberOfPeople > guide.maxGroupSize) {
        throw new AppError('VALIDATION_ERROR', {
          messageKey: 'booking.tooManyPeople',
          params: { count: guide.maxGroupSize },
          fieldErrors: { numberOfPeople: ['validation.peopleAboveGuideMax'] },
        });
      }
      assertInWindow(input.date, now);
      // Bookings of a slot close 3 hours before it begins (docs/decisions/015-booking-cutoff.md).
      if (!isBookableTime(input.date, input.timeSlot, now)) throw new AppError('TIME_CONFLICT', { messageKey: 'booking.slotClosed' });
      const checks = await bookingChecks(tx, traveler.id, guide.id, input, now);
      usage = checks;
      // The limits as they stand before this booking: what a refusal reports (a full one: 0 remaining).
      if (checks && limits) noteBookingLimits(limits, checks, now, 0);
      // The traveler's own live order on this slot (a retry after a lost answer, a double tap, the back button):
      // their order, never "another traveler". Exact under concurrency: read after the traveler's row lock, so every
      // booking of theirs that could hold the slot has committed (and is seen) or has not begun.
      if (checks?.heldOrderId) throw alreadyBooked(checks.heldOrderId);
      // A slot the guide has not opened cannot be booked: the same answer as a taken one (SPEC §8 Booking).
      if (!checks?.available) throw new AppError('TIME_CONFLICT');
      assertWithinBookingLimits(checks, now);
      const order = {
        id: checks.orderId,
        travelerId: traveler.id,
        guideId: guide.id,
        date: input.date,
        timeSlot: input.timeSlot,
        numberOfPeople: input.numberOfPeople,
        note: input.note ?? null,
        status: 'pending' as const,
        totalPrice: guide.price ?? 0,
      };
      // The booking's own time (the clock tests move): the hourly limit counts by it.
      const values = { ...order, ...bookingMoneyTerms(), now, nowText: now.toISOString() };
      if (order.totalPrice > 0) {
        const [placed] = await placePaidOrder(tx, { ...values, merchantTradeNo: newMerchantTradeNo(order.id) });
        return { order: toOrderView(placed!.order, traveler.name, guide.name), payment: paymentView(placed!.payment, placed!.order) };
      }
      const facts = orderNoticeFacts(order, { traveler: traveler.name, guide: guide.name, actor: traveler.name });
      const notice = await orderNotice(guide, 'booked', facts);
      const [placed] = await placeFreeOrder(tx, { ...values, ...noticeValues(notice) });
      pending = [{ recipient: guide, kind: 'booked', order: facts, notification: placed!.notification }];
      return { order: toOrderView(placed!.order, traveler.name, guide.name), payment: null };
    });
  } catch (error) {
    const refusal = pgErrorCode(error) === UNIQUE_VIOLATION ? new AppError('TIME_CONFLICT') : error;
    countEvent('bookings_refused_total', { reason: refusal instanceof AppError ? refusal.code : 'SERVER_ERROR' });
    throw refusal;
  }
  if (usage && limits) noteBookingLimits(limits, usage, now, 1);
  countEvent('bookings_created_total');
  deliverOrderNotices(pending);
  return booked;
}

/**
 * Limits a real traveler never meets (docs/decisions/005, "Bookings"), so that nobody can take a guide's calendar
 * or flood a guide with notices: at most BOOKING_LIMITS.perHour bookings an hour (cancelled ones count: book and
 * cancel was the flood), BOOKING_LIMITS.pending pending orders in all and BOOKING_LIMITS.pendingWithGuide with
 * one guide. Counted in the database, so every instance sees the same numbers; the traveler's row is locked first
 * (NO KEY UPDATE: the order's foreign key takes KEY SHARE on it), so one person's parallel bookings are counted
 * one after the other and cannot slip past together. Over a limit: 429 RATE_LIMIT_EXCEEDED with Retry-After.
 */
export const BOOKING_LIMITS = { perHour: 12, pending: 12, pendingWithGuide: 6 } as const;
const HOUR_MS = 3_600_000;

/**
 * The slot and the traveler's booking counts in one statement. Call it after the traveler's row is locked FOR NO
 * KEY UPDATE in `tx` (bookSlot does): the statement's snapshot is then taken after every earlier booking of this
 * traveler committed, so parallel bookings of one person are counted one after the other.
 * FOR SHARE OF the slot: bookings of one slot still run side by side (the unique index picks one), while a guide's
 * save that closes the slot (setSlots locks the slot rows FOR UPDATE) waits for this booking or makes it wait and
 * then read the slot closed (a locked row is read again at its newest version). Without it, READ COMMITTED let
 * both succeed: a live order on a closed slot. No row: the guide never opened the slot.
 */
const slotAndCounts = preparedStatement('booking_slot_and_counts', (db) => {
  // The four counts read the traveler's own orders once, through the traveler's index: written as four subqueries,
  // PostgreSQL's cached plan for one of them walked every live order of every traveler when the table's statistics
  // were older than its rows (a fresh or fast-growing table), so each booking cost more than the one before.
  const inLastHour = sql`${orders.createdAt} > ${sql.placeholder('hourAgo')}::timestamptz`;
  const pending = sql`${orders.status} = 'pending' and ${orders.deletedAt} is null`;
  // The live order of this traveler on this very slot: what orders_no_double_booking counts as holding it.
  const holdsSlot = sql`${orders.guideId} = ${sql.placeholder('guideId')} and ${orders.date} = ${sql.placeholder('date')}
    and ${orders.timeSlot} = ${sql.placeholder('timeSlot')} and ${orders.status} in ('pending', 'confirmed', 'completed') and ${orders.deletedAt} is null`;
  const usage = db.$with('usage').as(
    db
      .select({
        lastHour: sql<number>`count(*) filter (where ${inLastHour})`.mapWith(Number).as('last_hour'),
        oldestInHour: sql<Date | string | null>`min(${orders.createdAt}) filter (where ${inLastHour})`.as('oldest_in_hour'),
        pending: sql<number>`count(*) filter (where ${pending})`.mapWith(Number).as('pending'),
        pendingWithGuide: sql<number>`count(*) filter (where ${pending} and ${orders.guideId} = ${sql.placeholder('guideId')})`
          .mapWith(Number)
          .as('pending_with_guide'),
        heldOrderId: sql<number | null>`max(${orders.id}) filter (where ${holdsSlot})`.mapWith(Number).as('held_order_id'),
      })
      .from(orders)
      .where(eq(orders.travelerId, sql.placeholder('travelerId'))),
  );
  return db
    .with(usage)
    .select({
      available: availabilitySlots.available,
      lastHour: usage.lastHour,
      oldestInHour: usage.oldestInHour,
      pending: usage.pending,
      pendingWithGuide: usage.pendingWithGuide,
      heldOrderId: usage.heldOrderId,
      // The id of the order this booking would place, drawn now so that its notice can be worded before the insert
      // (a refused booking leaves a gap in the ids, as a rolled-back insert does).
      orderId: sql<number>`nextval(pg_get_serial_sequence('orders', 'id'))`.mapWith(Number),
    })
    .from(availabilitySlots)
    .crossJoin(usage)
    .where(
      and(
        eq(availabilitySlots.guideId, sql.placeholder('guideId')),
        eq(availabilitySlots.date, sql.placeholder('date')),
        eq(availabilitySlots.timeSlot, sql.placeholder('timeSlot')),
      ),
    )
    .for('share', { of: availabilitySlots });
});

/** 409 ALREADY_BOOKED: the traveler's own order holds the slot; its id goes in the message and the answer. */
function alreadyBooked(orderId: number): AppError {
  return new AppError('ALREADY_BOOKED', { params: { orderId }, details: { orderId } });
}

type BookingChecks = Awaited<ReturnType<typeof slotAndCounts>>[number];

async function bookingChecks(tx: Database, travelerId: number, guideId: number, slot: Pick<BookingInput, 'date' | 'timeSlot'>, now: Date): Promise<BookingChecks | undefined> {
  const hourAgo = new Date(now.getTime() - HOUR_MS).toISOString();
  const [row] = await slotAndCounts(tx, { travelerId, guideId, date: slot.date, timeSlot: slot.timeSlot, hourAgo });
  return row;
}

/**
 * The booking limits for the answer's RateLimit-* headers, `placed` (0 or 1) counted in: the hourly one resets when
 * its oldest booking leaves the hour; the pending ones end when the guide answers, so they report the hour a
 * refusal's Retry-After gives (docs/decisions/041-rate-limit-headers.md).
 */
function noteBookingLimits(log: LimitLog, usage: BookingChecks, now: Date, placed: 0 | 1): void {
  // The log counts time by the process clock; the booking's own clock may be moved (tests): keep the distance.
  const at = (ms: number) => Date.now() + ms - now.getTime();
  const oldest = usage.oldestInHour ? new Date(usage.oldestInHour).getTime() : now.getTime();
  const hourOn = at(now.getTime() + HOUR_MS);
  log.note('booking:per-hour', BOOKING_LIMITS.perHour, usage.lastHour + placed, usage.lastHour + placed > 0 ? at(oldest + HOUR_MS) : hourOn);
  log.note('booking:pending', BOOKING_LIMITS.pending, usage.pending + placed, hourOn);
  log.note('booking:pending-with-guide', BOOKING_LIMITS.pendingWithGuide, usage.pendingWithGuide + placed, hourOn);
}

function assertWithinBookingLimits(usage: BookingChecks, now: Date): void {
  if (usage.lastHour >= BOOKING_LIMITS.perHour) {
    // Until the oldest booking of the hour leaves the window.
    const oldest = usage.oldestInHour ? new Date(usage.oldestInHour).getTime() : now.getTime();
    countEvent('rate_limit_refusals_total', { limit: 'booking:per-hour' });
    throw new AppError('RATE_LIMIT_EXCEEDED', { retryAfter: Math.max(1, Math.ceil((oldest + HOUR_MS - now.getTime()) / 1000)) });
  }
  // Pending orders end when the guide answers or the traveler cancels: ask again in an hour.
  if (usage.pending >= BOOKING_LIMITS.pending || usage.pendingWithGuide >= BOOKING_LIMITS.pendingWithGuide) {
    countEvent('rate_limit_refusals_total', { limit: usage.pending >= BOOKING_LIMITS.pending ? 'booking:pending' : 'booking:pending-with-guide' });
    throw new AppError('RATE_LIMIT_EXCEEDED', { retryAfter: HOUR_MS / 1000 });
  }
}
