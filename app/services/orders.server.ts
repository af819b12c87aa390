import { and, asc, count, desc, eq, inArray, isNull, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { getDb, type Database } from '~db/client';
import { orderEvents, orders, users } from '~db/schema';
import type { OrderAction, OrderEventView, OrderListQuery, OrderUpdate, OrderView } from '~/schemas/orders';
import type { UserOrderSummary } from '~/schemas/user-views';
import type { Viewer } from './access.server';
import { now as clockNow } from './clock.server';
import { AppError, idParamOr, pgErrorCode, UNIQUE_VIOLATION } from './errors.server';
import { deliverOrderNotices, orderNoticeFacts, recordOrderNotice, type OrderNoticeKind, type PendingNotice } from './order-notices.server';
import { availableActions, decide, type Actor } from './order-state.server';
import type { UserType } from './users.server';

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
  const side =
    type === 'traveler'
      ? eq(orders.travelerId, userId)
      : type === 'guide'
        ? eq(orders.guideId, userId)
        : or(eq(orders.travelerId, userId), eq(orders.guideId, userId));
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

function toOrderView(row: OrderRow, travelerName: string, guideName: string): OrderView {
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
    status: row.status,
    travelerCompleted: row.travelerCompleted,
    guideCompleted: row.guideCompleted,
    totalPrice: row.totalPrice,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    deletedAt: row.deletedAt?.toISOString() ?? null,
  };
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

/** A traveler's bookings, a guide's tours, or (admin) every order; newest first; deleted orders never listed. */
export async function listOrders(viewer: Viewer, query: OrderListQuery, db: Database = getDb()) {
  const side =
    viewer.type === 'admin' ? undefined : viewer.type === 'guide' ? eq(orders.guideId, viewer.id) : eq(orders.travelerId, viewer.id);
  const where = and(side, isNull(orders.deletedAt), query.status ? eq(orders.status, query.status) : undefined);
  const [[totalRow], rows] = await Promise.all([
    db.select({ n: count() }).from(orders).where(where),
    orderSelect(db)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
  ]);
  const total = totalRow?.n ?? 0;
  const totalPages = Math.ceil(total / query.limit);
  return {
    orders: rows.map((r) => toOrderView(r.order, r.travelerName, r.guideName)),
    pagination: { page: query.page, limit: query.limit, total, totalPages, hasNext: query.page < totalPages, hasPrev: query.page > 1 },
  };
}

/** The order for its traveler, its guide or an admin; anyone else 403; a deleted order is only an admin's. */
export async function getOrderFor(viewer: Viewer, id: number, db: Database = getDb()): Promise<OrderView> {
  const order = await loadOrder(id, db);
  if (viewer.type !== 'admin' && viewer.id !== order.travelerId && viewer.id !== order.guideId) throw new AppError('FORBIDDEN');
  if (order.deletedAt && viewer.type !== 'admin') throw new AppError('NOT_FOUND');
  return order;
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
  const actions = order.deletedAt ? [] : availableActions(order, actorOf(viewer), now);
  return { order, events: await orderTimeline(id, db), actions };
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

async function partiesOf(order: OrderRow, db: Database) {
  const rows = await db.select().from(users).where(inArray(users.id, [order.travelerId, order.guideId]));
  const traveler = rows.find((u) => u.id === order.travelerId)!;
  const guide = rows.find((u) => u.id === order.guideId)!;
  return { traveler, guide };
}

/**
 * Moves an order by one action of the state machine (app/services/order-state.server.ts), in one transaction with
 * its timeline event and the other party's notification; the mail and socket events follow the commit.
 */
export async function transitionOrder(
  viewer: Viewer,
  id: number,
  action: OrderAction,
  db: Database = getDb(),
  now: Date = clockNow(),
): Promise<OrderView> {
  const existing = await getOrderFor(viewer, id, db);
  if (existing.deletedAt) throw new AppError('NOT_FOUND');
  let pending: PendingNotice[] = [];
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
    if (!row || row.deletedAt) throw new AppError('NOT_FOUND');
    const decision = decide(row, actorOf(viewer), action, now);
    const [updated] = await tx
      .update(orders)
      .set({ ...decision.patch, updatedAt: now })
      .where(eq(orders.id, id))
      .returning();
    await tx.insert(orderEvents).values({
      orderId: id,
      action: action === 'complete' && decision.to === 'completed' ? 'complete' : action === 'complete' ? `complete_${decision.party}` : action,
      fromStatus: decision.from,
      toStatus: decision.to,
      actorId: viewer.id,
      actorRole: decision.party,
      at: now,
    });
    const { traveler, guide } = await partiesOf(updated!, tx);
    const actor = viewer.id === traveler.id ? traveler : viewer.id === guide.id ? guide : undefined;
    const facts = orderNoticeFacts(updated!, { traveler: traveler.name, guide: guide.name, actor: actor?.name ?? '' });
    const recipients: Party[] =
      decision.party === 'admin' ? ['traveler', 'guide'] : decision.party === 'traveler' ? ['guide'] : ['traveler'];
    const kind: OrderNoticeKind = action === 'complete' && decision.to === 'completed' ? 'completed' : NOTICE_OF[action];
    pending = [];
    for (const who of recipients) pending.push(await recordOrderNotice(who === 'traveler' ? traveler : guide, kind, facts, tx));
  });
  await deliverOrderNotices(pending);
  return loadOrder(id, db);
}

/** PUT /api/v1/orders/{id}: `{status}` or one completion flag, read as an action of the state machine. */
export async function updateOrder(viewer: Viewer, id: number, update: OrderUpdate, db: Database = getDb(), now: Date = clockNow()) {
  const order = await getOrderFor(viewer, id, db);
  let action: OrderAction;
  if (update.travelerCompleted) {
    if (viewer.id !== order.travelerId) throw new AppError('FORBIDDEN');
    action = 'complete';
  } else if (update.guideCompleted) {
    if (viewer.id !== order.guideId) throw new AppError('FORBIDDEN');
    action = 'complete';
  } else if (update.status === 'confirmed') action = 'confirm';
  else if (update.status === 'cancelled') action = viewer.id === order.guideId && order.status === 'pending' ? 'decline' : 'cancel';
  else if (update.status === 'completed') action = 'complete';
  else action = 'refund';
  return transitionOrder(viewer, id, action, db, now);
}

/** Admin: a deleted order leaves every list and frees its slot (the unique index skips deleted rows). */
export async function deleteOrder(viewer: Viewer, id: number, db: Database = getDb(), now: Date = clockNow()): Promise<OrderView> {
  if (viewer.type !== 'admin') throw new AppError('FORBIDDEN');
  const order = await loadOrder(id, db);
  if (order.deletedAt) return order;
  await db.transaction(async (tx) => {
    await tx.update(orders).set({ deletedAt: now, updatedAt: now }).where(eq(orders.id, id));
    await tx.insert(orderEvents).values({ orderId: id, action: 'delete', fromStatus: order.status, toStatus: order.status, actorId: viewer.id, actorRole: 'admin', at: now });
  });
  return loadOrder(id, db);
}

/** Admin: brings a deleted order back; TIME_CONFLICT when its slot was booked since. */
export async function restoreOrder(viewer: Viewer, id: number, db: Database = getDb(), now: Date = clockNow()): Promise<OrderView> {
  if (viewer.type !== 'admin') throw new AppError('FORBIDDEN');
  const order = await loadOrder(id, db);
  if (!order.deletedAt) return order;
  try {
    await db.transaction(async (tx) => {
      await tx.update(orders).set({ deletedAt: null, updatedAt: now }).where(eq(orders.id, id));
      await tx.insert(orderEvents).values({ orderId: id, action: 'restore', fromStatus: order.status, toStatus: order.status, actorId: viewer.id, actorRole: 'admin', at: now });
    });
  } catch (error) {
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw new AppError('TIME_CONFLICT');
    throw error;
  }
  return loadOrder(id, db);
}
