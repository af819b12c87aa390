import { asc, count, desc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { getDb, type Database } from '~db/client';
import { orderEvents, orderNotes, orders, users } from '~db/schema';
import { ADMIN_ORDER_PAGE_SIZE, type AdminOrderIntent, type AdminOrderQuery } from '~/schemas/admin-orders';
import type { OrderStatus } from '~/schemas/orders';
import { recordAudit, type AuditAction } from '../platform/audit.server';
import { now as clockNow } from '../platform/clock.server';
import { AppError, pgErrorCode, UNIQUE_VIOLATION } from '../platform/errors.server';
import { paginate } from '../catalogue/guides.server';
import { deliverOrderNotices, orderNoticeFacts, recordOrderNotice, type OrderNoticeKind, type PendingNotice } from '../messaging/order-notices.server';
import { availableActions, decide, refundOnCancel } from '../booking/order-state.server';
import { orderFilterConditions } from '../booking/order-filters.server';
import { loadOrder, orderTimeline, type OrderView } from '../booking/orders.server';
import { listOrderReviews } from '../booking/reviews.server';
import { assertAdmin } from '../accounts/user-admin.server';
import type { UserRow } from '../accounts/users.server';
import { applyMoneyEffect, latestPayment, paymentView, refundIfCancelled } from '../payments/order-payments.server';

/*
 * The admin side of orders (issue 22): /admin/orders and /admin/orders/:id. The list filters every order; the
 * page shows its timeline, reviews and internal notes, and the admin's actions:
 *
 * - refund: the state machine's own rule (cancelled or completed → refunded, admins only), through `decide`;
 * - cancel: an admin may cancel a pending or confirmed order that has not been refunded, at any time (a dispute,
 *   a guide who cannot come). The state machine gives cancelling to the parties only, so this admin transition
 *   lives here and says what the traveler gets back with `refundOnCancel(…, 'admin')` (all of it);
 * - delete and restore, as orders.server does them.
 *
 * Each action writes the order's timeline event, both parties' notifications (each in their own language) and
 * the audit row in one transaction; mail and socket events follow the commit.
 */

type Admin = UserRow;
type OrderRow = typeof orders.$inferSelect;

export interface AdminOrderRow {
  id: number;
  status: OrderStatus;
  date: string;
  timeSlot: string;
  numberOfPeople: number;
  totalPrice: number;
  travelerId: number;
  travelerName: string;
  guideId: number;
  guideName: string;
  createdAt: string;
  deletedAt: string | null;
}

/** Every order matching the filters, newest first, 20 a page. */
export async function listOrdersForAdmin(actor: Pick<UserRow, 'type'>, query: AdminOrderQuery, db: Database = getDb()) {
  assertAdmin(actor);
  const traveler = alias(users, 'traveler');
  const guide = alias(users, 'guide');
  const where = orderFilterConditions(query, { traveler, guide });
  const base = db
    .select({ order: orders, travelerName: traveler.name, guideName: guide.name })
    .from(orders)
    .innerJoin(traveler, eq(traveler.id, orders.travelerId))
    .innerJoin(guide, eq(guide.id, orders.guideId))
    .where(where);
  const [rows, [total]] = await Promise.all([
    base.orderBy(desc(orders.createdAt), desc(orders.id)).limit(ADMIN_ORDER_PAGE_SIZE).offset((query.page - 1) * ADMIN_ORDER_PAGE_SIZE),
    db
      .select({ n: count() })
      .from(orders)
      .innerJoin(traveler, eq(traveler.id, orders.travelerId))
      .innerJoin(guide, eq(guide.id, orders.guideId))
      .where(where),
  ]);
  return {
    orders: rows.map(
      ({ order, travelerName, guideName }): AdminOrderRow => ({
        id: order.id,
        status: order.status,
        date: order.date,
        timeSlot: order.timeSlot,
        numberOfPeople: order.numberOfPeople,
        totalPrice: order.totalPrice,
        travelerId: order.travelerId,
        travelerName,
        guideId: order.guideId,
        guideName,
        createdAt: order.createdAt.toISOString(),
        deletedAt: order.deletedAt?.toISOString() ?? null,
      }),
    ),
    pagination: paginate(query.page, ADMIN_ORDER_PAGE_SIZE, total?.n ?? 0),
  };
}

/** The admin actions open on an order now. */
function adminActions(order: Pick<OrderRow, 'status' | 'deletedAt'> & Parameters<typeof availableActions>[0], actor: Admin, now: Date): AdminOrderIntent[] {
  if (order.deletedAt) return ['restore'];
  const actions: AdminOrderIntent[] = [];
  if (order.status === 'pending' || order.status === 'confirmed') actions.push('cancel');
  if (availableActions(order, { id: actor.id, type: 'admin' }, now).includes('refund')) actions.push('refund');
  actions.push('delete');
  return actions;
}

/** /admin/orders/:id: the order, both parties, its timeline, reviews, internal notes and what the admin may do. */
export async function getOrderForAdmin(actor: Admin, id: number, db: Database = getDb(), now: Date = clockNow()) {
  assertAdmin(actor);
  const order = await loadOrder(id, db);
  const author = alias(users, 'author');
  const [events, reviews, notes] = await Promise.all([
    orderTimeline(id, db),
    listOrderReviews(actor, id, db),
    db
      .select({ id: orderNotes.id, body: orderNotes.body, createdAt: orderNotes.createdAt, authorId: orderNotes.authorId, authorName: author.name })
      .from(orderNotes)
      .leftJoin(author, eq(author.id, orderNotes.authorId))
      .where(eq(orderNotes.orderId, id))
      .orderBy(asc(orderNotes.createdAt), asc(orderNotes.id)),
  ]);
  const actions = adminActions({ ...order, deletedAt: order.deletedAt ? new Date(order.deletedAt) : null }, actor, now);
  const payment = await latestPayment(id, db);
  return {
    order,
    events,
    reviews,
    notes: notes.map((n) => ({ ...n, createdAt: n.createdAt.toISOString() })),
    actions,
    // What the traveler gets back: all of it when an admin cancels; what is left of the payment when refunding.
    refund: refundIfCancelled(order, payment, 'admin', now),
    payment: paymentView(payment, order),
  };
}

async function partiesOf(order: OrderRow, db: Database) {
  const rows = await db.select().from(users).where(inArray(users.id, [order.travelerId, order.guideId]));
  return { traveler: rows.find((u) => u.id === order.travelerId)!, guide: rows.find((u) => u.id === order.guideId)! };
}

interface Change {
  /** Checks the locked row and says what to write (throws INVALID_TRANSITION / NOT_FOUND). */
  plan(row: OrderRow): { patch: Partial<OrderRow>; event: string; to: OrderStatus; notice: OrderNoticeKind; details?: Record<string, unknown> };
  /** The order transition whose money side this change has (issue 32): the traveler gets all of it back. */
  money?: 'cancel' | 'refund';
}

/** One admin change of an order: the locked row, the plan, the timeline event, both parties told, the audit row. */
async function applyAdminChange(actor: Admin, id: number, action: AuditAction, change: Change, db: Database, now: Date): Promise<OrderView> {
  assertAdmin(actor);
  let pending: PendingNotice[] = [];
  try {
    await db.transaction(async (tx) => {
      const [row] = Number.isSafeInteger(id) && id > 0 ? await tx.select().from(orders).where(eq(orders.id, id)).for('no key update') : [];
      if (!row) throw new AppError('NOT_FOUND');
      const plan = change.plan(row);
      const [updated] = await tx
        .update(orders)
        .set({ ...plan.patch, updatedAt: now })
        .where(eq(orders.id, id))
        .returning();
      if (change.money) await applyMoneyEffect(tx as unknown as Database, { action: change.money, order: updated!, party: 'admin', now });
      await tx.insert(orderEvents).values({ orderId: id, action: plan.event, fromStatus: row.status, toStatus: plan.to, actorId: actor.id, actorRole: 'admin', at: now });
      const { traveler, guide } = await partiesOf(updated!, tx);
      const facts = orderNoticeFacts(updated!, { traveler: traveler.name, guide: guide.name, actor: actor.name });
      pending = [await recordOrderNotice(traveler, plan.notice, facts, tx), await recordOrderNotice(guide, plan.notice, facts, tx)];
      await recordAudit(
        {
          actorId: actor.id,
          action,
          targetType: 'order',
          targetId: id,
          details: { from: row.status, to: plan.to, traveler: traveler.name, guide: guide.name, ...plan.details },
        },
        tx,
      );
    });
  } catch (error) {
    // A restored order whose slot was booked since.
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw new AppError('TIME_CONFLICT');
    throw error;
  }
  await deliverOrderNotices(pending);
  return loadOrder(id, db);
}

/** Cancels a pending or confirmed order as an admin, with a reason kept in the audit log; the traveler gets all back. */
export function adminCancelOrder(actor: Admin, id: number, reason: string, db: Database = getDb(), now: Date = clockNow()) {
  return applyAdminChange(
    actor,
    id,
    'order.cancel',
    {
      plan(row) {
        if (row.deletedAt) throw new AppError('NOT_FOUND');
        const decision = decide(row, { id: actor.id, type: 'admin' }, 'cancel', now);
        const refund = refundOnCancel(row, decision.party, now);
        return { patch: decision.patch, event: 'cancel', to: decision.to, notice: 'cancelled', details: { reason, refund: refund.amount } };
      },
      money: 'cancel',
    },
    db,
    now,
  );
}

/**
 * Refunds a cancelled or completed order (the state machine's admin rule): what is left of the traveler's payment
 * goes back through the provider (issue 32), with the admin's reason in the audit log.
 */
export function adminRefundOrder(actor: Admin, id: number, reason: string, db: Database = getDb(), now: Date = clockNow()) {
  return applyAdminChange(
    actor,
    id,
    'order.refund',
    {
      plan(row) {
        if (row.deletedAt) throw new AppError('NOT_FOUND');
        const decision = decide(row, { id: actor.id, type: 'admin' }, 'refund', now);
        return { patch: decision.patch, event: 'refund', to: decision.to, notice: 'refunded', details: { reason, amount: row.totalPrice } };
      },
      money: 'refund',
    },
    db,
    now,
  );
}

/** Deletes an order: it leaves every list and frees its slot. Deleting a deleted order is refused. */
export function adminDeleteOrder(actor: Admin, id: number, db: Database = getDb(), now: Date = clockNow()) {
  return applyAdminChange(
    actor,
    id,
    'order.delete',
    {
      plan(row) {
        if (row.deletedAt) throw new AppError('INVALID_TRANSITION');
        return { patch: { deletedAt: now }, event: 'delete', to: row.status, notice: 'deleted' };
      },
    },
    db,
    now,
  );
}

/** Brings a deleted order back; TIME_CONFLICT when its slot was booked since. */
export function adminRestoreOrder(actor: Admin, id: number, db: Database = getDb(), now: Date = clockNow()) {
  return applyAdminChange(
    actor,
    id,
    'order.restore',
    {
      plan(row) {
        if (!row.deletedAt) throw new AppError('INVALID_TRANSITION');
        return { patch: { deletedAt: null }, event: 'restore', to: row.status, notice: 'restored' };
      },
    },
    db,
    now,
  );
}

/** An internal note on an order (admins only ever see it), audited. */
export async function addOrderNote(actor: Admin, id: number, body: string, db: Database = getDb()): Promise<void> {
  assertAdmin(actor);
  await loadOrder(id, db);
  await db.transaction(async (tx) => {
    await tx.insert(orderNotes).values({ orderId: id, authorId: actor.id, body });
    await recordAudit({ actorId: actor.id, action: 'order.note', targetType: 'order', targetId: id, details: { note: body.slice(0, 200) } }, tx);
  });
}
