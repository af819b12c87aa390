import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { orderEvents, orders, outbox, payments } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { bookSlot } from '~/services/booking/booking.server';
import { listNotifications } from '~/services/messaging/notifications.server';
import { changeOrder, getOrderDetail, listOrders } from '~/services/booking/orders.server';
import { expireUnpaidOrders } from '~/services/payments/order-payments.server';
import { AppError } from '~/services/platform/errors.server';
import { createAvailability, createGuide, createTraveler } from '~server/seed/factories';
import { payOrder } from '../support/payments';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * The order's money wired into booking and the order's transitions (issue 32, docs/decisions/040), through the
 * services the pages and the API call: a paid tour's booking opens an unpaid payment and holds the slot without
 * telling the guide; the simulator's signed callback authorises it and tells the guide; confirming an unpaid order
 * is PAYMENT_REQUIRED; each transition queues its provider action once (`order:{id}:{action}`); an order left
 * unpaid expires and frees its slot.
 */
useTestDatabase();

let seq = 0;
async function booking(price = 3000) {
  const guide = await createGuide({ price, locale: 'en' });
  const traveler = await createTraveler({ isEmailVerified: true, name: `Payer ${++seq}` });
  const day = addDays(todayInTaipei(), 6);
  await createAvailability(guide.id, { from: day, days: 1, price });
  const booked = await bookSlot(traveler, { guideId: guide.id, date: day, timeSlot: 'morning', numberOfPeople: 2, termsAccepted: true });
  return { guide, traveler, day, ...booked };
}

const paymentJobs = (orderId: number) =>
  getDb()
    .select({ key: outbox.dedupeKey, payload: outbox.payload })
    .from(outbox)
    .where(and(eq(outbox.kind, 'payment')))
    .then((rows) => rows.filter((r) => r.key?.startsWith(`order:${orderId}:`)));

async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return 'no refusal';
}

describe(`an order's money (${testDriver})`, () => {
  it('a paid tour: unpaid payment at booking, the guide hears of it once the card is authorised', async () => {
    const { guide, traveler, order, payment } = await booking();
    expect(payment).toMatchObject({ status: 'unpaid', amount: 3000, captured: 0, refunded: 0, provider: 'simulator' });
    expect(payment!.checkoutUrl).toMatch(new RegExp(`/orders/${order.id}/pay$`));
    const [row] = await getDb().select().from(orders).where(eq(orders.id, order.id));
    expect(row!.commissionPercent).toBe(10);
    // Not the guide's yet: no notice, not in the guide's list, and it cannot be confirmed.
    expect((await listNotifications(guide.id, { page: 1, limit: 10, unread: false }, 'en')).notifications).toHaveLength(0);
    expect((await listOrders(guide, { page: 1, limit: 10 })).orders.map((o) => o.id)).not.toContain(order.id);
    expect(await refusal(changeOrder(guide, order.id, { status: 'confirmed' }))).toBe('PAYMENT_REQUIRED');

    expect(await payOrder(traveler, order.id)).toEqual({ status: 200, body: '1|OK' });
    const notices = (await listNotifications(guide.id, { page: 1, limit: 10, unread: false }, 'en')).notifications;
    expect(notices.map((n) => n.type)).toEqual(['order.booked']);
    expect((await listOrders(guide, { page: 1, limit: 10 })).orders.map((o) => o.id)).toContain(order.id);
    const detail = await getOrderDetail(traveler, order.id);
    expect(detail.payment).toMatchObject({ status: 'authorised', amount: 3000, checkoutUrl: null, payBy: null });
    expect(detail.refund).toEqual({ share: 100, amount: 3000, basis: 'authorisation' });
  });

  it('a traveler who cancels before paying tells nobody: the guide never heard of the booking', async () => {
    const { guide, traveler, order } = await booking();
    await changeOrder(traveler, order.id, { status: 'cancelled' });
    expect((await listNotifications(guide.id, { page: 1, limit: 10, unread: false }, 'en')).notifications).toHaveLength(0);
    expect((await getOrderDetail(traveler, order.id)).payment).toMatchObject({ status: 'expired' });
  });

  it('a declined card leaves the order unpaid and another attempt possible; the same callback twice is applied once', async () => {
    const { traveler, order } = await booking();
    expect(await payOrder(traveler, order.id, 'declined')).toEqual({ status: 200, body: '1|OK' });
    expect((await getOrderDetail(traveler, order.id)).payment).toMatchObject({ status: 'failed' });
    const { retryPayment } = await import('~/services/payments/order-payments.server');
    const second = await retryPayment(traveler, order.id, new Date());
    expect(second.status).toBe('unpaid');
    await payOrder(traveler, order.id, 'approved');
    const rows = await getDb().select().from(payments).where(eq(payments.orderId, order.id));
    expect(rows.map((p) => p.status).sort()).toEqual(['authorised', 'failed']);
  });

  it('each transition queues its provider action once, keyed by order and action', async () => {
    const { guide, traveler, order } = await booking();
    await payOrder(traveler, order.id);
    await changeOrder(guide, order.id, { status: 'confirmed' });
    expect(await paymentJobs(order.id)).toEqual([{ key: `order:${order.id}:confirm`, payload: expect.objectContaining({ orderId: order.id, steps: [{ kind: 'capture' }] }) }]);

    const other = await booking();
    await payOrder(other.traveler, other.order.id);
    await changeOrder(other.guide, other.order.id, { status: 'cancelled' });
    expect(await paymentJobs(other.order.id)).toEqual([{ key: `order:${other.order.id}:decline`, payload: expect.objectContaining({ steps: [{ kind: 'void' }] }) }]);
  });

  it('an order left unpaid past the payment window is cancelled by the system, its payment expired, its slot free', async () => {
    const { guide, traveler, order, day } = await booking();
    const later = new Date(Date.now() + 31 * 60_000);
    const result = await getDb().transaction((tx) => expireUnpaidOrders(tx as never, later));
    expect(result.expired).toBeGreaterThanOrEqual(1);
    const detail = await getOrderDetail(traveler, order.id);
    expect(detail.order.status).toBe('cancelled');
    expect(detail.payment).toMatchObject({ status: 'expired', checkoutUrl: null });
    const [event] = await getDb().select().from(orderEvents).where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.action, 'expire')));
    expect(event).toMatchObject({ actorRole: 'system', toStatus: 'cancelled' });
    expect((await listNotifications(traveler.id, { page: 1, limit: 10, unread: false }, 'en')).notifications.map((n) => n.type)).toContain('order.paymentExpired');
    // The slot is bookable again, by someone else.
    const next = await createTraveler({ isEmailVerified: true });
    const again = await bookSlot(next, { guideId: guide.id, date: day, timeSlot: 'morning', numberOfPeople: 1, termsAccepted: true });
    expect(again.order.status).toBe('pending');
    // A card paid after the expiry is voided at the provider (a stray authorisation), never applied.
    await expect(payOrder(traveler, order.id)).rejects.toThrow(/cannot be paid now/);
  });
});
