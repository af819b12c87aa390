import { and, asc, count, desc, eq, isNotNull, isNull, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { getDb, type Database } from '~db/client';
import { orderEvents, orders, users } from '~db/schema';
import type { MeetingDetails, OrderAction, OrderEventView, OrderListQuery, OrderView } from '~/schemas/orders';
import type { UserOrderSummary } from '~/schemas/user-views';
import type { AdminOrderFilters } from '~/schemas/admin-orders';
import type { Viewer } from '../platform/access.server';
import { now as clockNow } from '../platform/clock.server';
import { maskContacts } from '~/lib/contact-mask';
import { recordAudit } from '../platform/audit.server';
import { pairKey, pairsShowingContacts } from '../messaging/contact-visibility.server';
import { orderFilterConditions } from './order-filters.server';
import { AppError, idParamOr } from '../platform/errors.server';
import { deliverOrderNotices, orderNoticeFacts, recordOrderNotice, type OrderNoticeKind, type PendingNotice } from '../messaging/order-notices.server';
import { actionFor, availableActions, decide, partyOf, refundOnCancel, type Actor, type OrderChange } from './order-state.server';
import type { UserType } from '../accounts/users.server';
import { selectOrderWithParties } from './order-parties.server';
import { applyMoneyEffect, latestPayment, paymentView, reachedGuide, refundIfCancelled, unseenByGuide } from '../payments/order-payments.server';
import { orderPaymentHistory } from '../payments/order-payment-history.server';

export type { OrderView };

/* Orders (SPEC §2 orders tab, issue 10): lists, the detail with its timeline, transitions, delete and restore. */

/** Orders the user is part of (as traveler, as guide, or either when `type` is not given), newest first. */
export async function listUserOrders(
  userId: number,
  type?: 'traveler' | 'guide' | UserType,
  db: Database = getDb(),
): Promise<UserOrderSummary[]> {
  const traveler = alias(users, 'traveler');
  const guide = alias(users, 'guide');
  // A guide's side lists an order once it is paid (issue 32): until then it is its traveler's alone.
  const asGuide = and(eq(orders.guideId, userId), reachedGuide());
  const side = type === 'traveler' ? eq(orders.travelerId, userId) : type === 'guide' ? asGuide : or(eq(orders.travelerId, userId), asGuide);
  const rows = await db
    .select({
      id: orders.id,
      status: orders.status,
      date: orders.date,
      timeSlot: orders.timeSlot,
      totalPrice: orders.totalPrice,
      travelerId: orders.travelerId,
      guideId: orders.guideId,
      travelerName: traveler.name,
      guideName: guide.name,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .innerJoin(traveler, eq(traveler.id, orders.travelerId))
    .innerJoin(guide, eq(guide.id, orders.guideId))
    .where(and(side, isNull(orders.deletedAt)))
    .orderBy(desc(orders.createdAt), desc(orders.id));
  return rows.map((r) => {
    const asGuide = r.guideId === userId && (type === 'guide' || r.travelerId !== userId);
    return {
      id: r.id,
      status: r.status,
      date: r.date,
      timeSlot: r.timeSlot,
      totalPrice: r.totalPrice,
      role: asGuide ? 'guide' : 'traveler',
      otherPartyId: asGuide ? r.travelerId : r.guideId,
      otherPartyName: asGuide ? r.travelerName : r.guideName,
      createdAt: r.createdAt.toISOString(),
    };
  });
}

/* ------------------------------------------------------------------ issue 10: the order's life */

type OrderRow = typeof orders.$inferSelect;

export function toOrderView(row: OrderRow, travelerName: string, guideName: string): OrderView {
  return {
    id: row.id,
    userId: row.travelerId,
    travelerId: row.travelerId,
    travelerName,
    guideId: row.guideId,
    guideUserId: row.guideId,
    guideName,
    date: row.date,
    timeSlot: row.timeSlot,
    numberOfPeople: row.numberOfPeople,
    note: row.note,
    noteMasked: false,
    status: row.status,
    travelerCompleted: row.travelerCompleted,
    guideCompleted: row.guideCompleted,
    totalPrice: row.totalPrice,
    meetingPoint: row.meetingPoint,
    guidePhone: row.guidePhone,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    deletedAt: row.deletedAt?.toISOString() ?? null,
  };
}

/**
 * The orders as this viewer reads them (issue 31, docs/decisions/034-contact-masking.md): an order's guide reads
 * the booking note with contact details masked until the pair has a confirmed or completed order, as in chat;
 * the traveler and admins read it as written. Every door that shows an order to its guide goes through here.
 */
export async function asReadBy<T extends OrderView>(viewer: Viewer, views: T[], db: Database = getDb()): Promise<T[]> {
  const guiding = (o: T) => o.note !== null && viewer.type !== 'admin' && o.guideId === viewer.id && o.travelerId !== viewer.id;
  const pending = views.filter(guiding);
  if (pending.length === 0) return views;
  const shown = await pairsShowingContacts(pending, db);
  return views.map((o) => {
    if (!guiding(o) || shown.has(pairKey(o))) return o;
    const masked = maskContacts(o.note!);
    return masked.masked ? { ...o, note: masked.text, noteMasked: true } : o;
  });
}

function orderSelect(db: Database) {
  const traveler = alias(users, 'traveler');
  const guide = alias(users, 'guide');
  return db
    .select({ order: orders, travelerName: traveler.name, guideName: guide.name })
    .from(orders)
    .innerJoin(traveler, eq(traveler.id, orders.travelerId))
    .innerJoin(guide, eq(guide.id, orders.guideId));
}

/** One order with both names (no access check: callers check first). */
export async function loadOrder(id: number, db: Database = getDb()): Promise<OrderView> {
  const [row] = Number.isSafeInteger(id) && id > 0 ? await orderSelect(db).where(eq(orders.id, id)) : [];
  if (!row) throw new AppError('NOT_FOUND');
  return toOrderView(row.order, row.travelerName, row.guideName);
}

export const orderIdParam = (raw: string | undefined): number => idParamOr('NOT_FOUND', raw);

/**
 * A traveler's bookings, a guide's tours, or (admin) every order; newest first. An admin filters as /admin/orders
 * does (order-filters.server.ts; deleted orders only with `deleted=only`); the others' views ignore those filters
 * and never list deleted orders.
 */
export async function listOrders(viewer: Viewer, query: OrderListQuery & Partial<AdminOrderFilters>, db: Database = getDb()) {
  const traveler = alias(users, 'traveler');
  const guide = alias(users, 'guide');
  const where =
    viewer.type === 'admin'
      ? orderFilterConditions(query, { traveler, guide })
      : and(
          viewer.type === 'guide' ? and(eq(orders.guideId, viewer.id), reachedGuide()) : eq(orders.travelerId, viewer.id),
          isNull(orders.deletedAt),
          query.status ? eq(orders.status, query.status) : undefined,
        );
  const [[totalRow], rows] = await Promise.all([
    db
      .select({ n: count() })
      .from(orders)
      .innerJoin(traveler, eq(traveler.id, orders.travelerId))
      .innerJoin(guide, eq(guide.id, orders.guideId))
      .where(where),
    db
      .select({ order: orders, travelerName: traveler.name, guideName: guide.name })
      .from(orders)
      .innerJoin(traveler, eq(traveler.id, orders.travelerId))
      .innerJoin(guide, eq(guide.id, orders.guideId))
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
  ]);
  const total = totalRow?.n ?? 0;
  const totalPages = Math.ceil(total / query.limit);
  return {
    orders: await asReadBy(viewer, rows.map((r) => toOrderView(r.order, r.travelerName, r.guideName)), db),
    pagination: { page: query.page, limit: query.limit, total, totalPages, hasNext: query.page < totalPages, hasPrev: query.page > 1 },
  };
}

/** The order for its traveler, its guide (the note as asReadBy shows it) or an admin; anyone else 403; a deleted order is only an admin's. */
export async function getOrderFor(viewer: Viewer, id: number, db: Database = getDb()): Promise<OrderView> {
  const order = await loadOrder(id, db);
  if (viewer.type !== 'admin' && viewer.id !== order.travelerId && viewer.id !== order.guideId) throw new AppError('FORBIDDEN');
  if (order.deletedAt && viewer.type !== 'admin') throw new AppError('NOT_FOUND');
  const [shown] = await asReadBy(viewer, [order], db);
  return shown!;
}

export async function orderTimeline(orderId: number, db: Database = getDb()): Promise<OrderEventView[]> {
  const rows = await db
    .select({ event: orderEvents, actorName: users.name })
    .from(orderEvents)
    .leftJoin(users, eq(users.id, orderEvents.actorId))
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.at), asc(orderEvents.id));
  return rows.map(({ event, actorName }) => ({
    action: event.action,
    fromStatus: event.fromStatus,
    toStatus: event.toStatus,
    actorId: event.actorId,
    actorRole: event.actorRole,
    actorName: actorName ?? null,
    at: event.at.toISOString(),
  }));
}

/** The order, its timeline and what the viewer may do now. */
export async function getOrderDetail(viewer: Viewer, id: number, db: Database = getDb(), now: Date = clockNow()) {
  const order = await getOrderFor(viewer, id, db);
  const actor = actorOf(viewer);
  const actions = order.deletedAt ? [] : availableActions(order, actor, now);
  // Cancelling asks first and says what the traveler gets back (issue 19).
  const cancelling = actions.includes('cancel') || actions.includes('decline');
  const payment = await latestPayment(id, db);
  const refund = cancelling ? refundIfCancelled(order, payment, partyOf(order, actor) ?? 'admin', now) : null;
  return { order, events: await orderTimeline(id, db), actions, refund, payment: paymentView(payment, order), paymentHistory: await orderPaymentHistory(id, db) };
}

function actorOf(viewer: Viewer): Actor {
  return { id: viewer.id, type: viewer.type };
}

type Party = 'traveler' | 'guide';
const NOTICE_OF: Record<OrderAction, OrderNoticeKind> = {
  confirm: 'confirmed',
  decline: 'declined',
  cancel: 'cancelled',
  complete: 'completionMarked',
  refund: 'refunded',
};

/** The meeting details a change or an order carries, when it has them (given together: app/schemas/orders.ts). */
function meetingOf(source: { meetingPoint?: string | null; guidePhone?: string | null } | OrderChange): Partial<MeetingDetails> {
  return 'meetingPoint' in source && source.meetingPoint && 'guidePhone' in source && source.guidePhone
    ? { meetingPoint: source.meetingPoint, guidePhone: source.guidePhone }
    : {};
}

/**
 * The meeting details this guide gave last (issue 35): the confirmation form starts from them, since a guide
 * mostly meets travelers at the same place and always has the same phone.
 */
export async function lastMeetingDetails(guideId: number, db: Database = getDb()): Promise<MeetingDetails | null> {
  const [row] = await db
    .select({ meetingPoint: orders.meetingPoint, guidePhone: orders.guidePhone })
    .from(orders)
    .where(and(eq(orders.guideId, guideId), isNotNull(orders.meetingPoint), isNotNull(orders.guidePhone)))
    .orderBy(desc(orders.updatedAt))
    .limit(1);
  return row ? { meetingPoint: row.meetingPoint!, guidePhone: row.guidePhone! } : null;
}

/**
 * The one way an order moves (issue 20), for the order page and PUT /api/v1/orders/{id} alike: in one transaction,
 * reads and locks the order once (with both parties, for the notices), says who the viewer is to it (a stranger
 * 403, a deleted order 404), reads the requested change as an action (`actionFor`) and lets the state machine
 * decide (app/services/booking/order-state.server.ts), then writes the change, its timeline event and the other party's
 * notification and mail (outbox). The lock makes two people's changes of one order take turns: the second sees
 * the first's result and gets 409 INVALID_TRANSITION when it no longer applies. Socket events follow the commit.
 */
export async function changeOrder(
  viewer: Viewer,
  id: number,
  change: OrderChange,
  db: Database = getDb(),
  now: Date = clockNow(),
): Promise<{ order: OrderView; action: OrderAction }> {
  if (!Number.isSafeInteger(id) || id <= 0) throw new AppError('NOT_FOUND');
  let pending: PendingNotice[] = [];
  const answer = await db.transaction(async (tx) => {
    const [row] = await selectOrderWithParties(tx as unknown as Database)
      .where(eq(orders.id, id))
      // Only the order's row: its people are read, not changed. NO KEY UPDATE, as the update itself takes: two
      // changes still take turns, while the payment lane's ledger entry (a foreign key to the order: KEY SHARE) is
      // not blocked by it; FOR UPDATE deadlocked against a capture holding the payment's lock (issue 32).
      .for('no key update', { of: orders });
    if (!row) throw new AppError('NOT_FOUND');
    const actor = actorOf(viewer);
    if (!partyOf(row.order, actor)) throw new AppError('FORBIDDEN');
    if (row.order.deletedAt) throw new AppError('NOT_FOUND');
    const action = actionFor(row.order, actor, change);
    const decision = decide(row.order, actor, action, now);
    const completed = action === 'complete' && decision.to === 'completed';
    // The money side (issue 32): refuse to confirm an unpaid order; queue the capture, void, refund or settlement.
    if (action !== 'complete' || completed) await applyMoneyEffect(tx, { action, order: { ...row.order, status: decision.to }, party: decision.party, now });
    const [updated] = await tx
      .update(orders)
      .set({ ...decision.patch, ...(action === 'confirm' ? meetingOf(change) : {}), updatedAt: now })
      .where(eq(orders.id, id))
      .returning();
    await tx.insert(orderEvents).values({
      orderId: id,
      action: completed ? 'complete' : action === 'complete' ? `complete_${decision.party}` : action,
      fromStatus: decision.from,
      toStatus: decision.to,
      actorId: viewer.id,
      actorRole: decision.party,
      at: now,
    });
    const actorName = viewer.id === row.traveler.id ? row.traveler.name : viewer.id === row.guide.id ? row.guide.name : '';
    const facts = orderNoticeFacts(updated!, { traveler: row.traveler.name, guide: row.guide.name, actor: actorName }, meetingOf(updated!));
    // A guide never told of an unpaid booking is not told of its end either (issue 32).
    const guideTold = !(await unseenByGuide(id, tx as unknown as Database));
    const recipients: Party[] = (decision.party === 'admin' ? (['traveler', 'guide'] as const) : decision.party === 'traveler' ? (['guide'] as const) : (['traveler'] as const)).filter(
      (who) => who !== 'guide' || guideTold,
    );
    const kind: OrderNoticeKind = completed ? 'completed' : NOTICE_OF[action];
    pending = [];
    for (const who of recipients) pending.push(await recordOrderNotice(who === 'traveler' ? row.traveler : row.guide, kind, facts, tx));
    // An admin's change is audited like the admin console's (the same action names), in the same transaction.
    if (decision.party === 'admin') {
      await recordAudit(
        { actorId: viewer.id, action: `order.${action}`, targetType: 'order', targetId: id, details: { from: decision.from, to: decision.to, traveler: row.traveler.name, guide: row.guide.name } },
        tx,
      );
    }
    const [shown] = await asReadBy(viewer, [toOrderView(updated!, row.traveler.name, row.guide.name)], tx);
    return { order: shown!, action };
  });
  deliverOrderNotices(pending);
  return answer;
}

