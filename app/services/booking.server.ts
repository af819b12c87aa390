import { and, eq } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { availabilitySlots, orderEvents, orders, users } from '~db/schema';
import type { BookingInput } from '~/schemas/booking';
import type { Viewer } from './access.server';
import { assertInWindow, isBookableGuide } from './availability.server';
import { now as clockNow } from './clock.server';
import { AppError, pgErrorCode, UNIQUE_VIOLATION } from './errors.server';
import { deliverOrderNotices, orderNoticeFacts, recordOrderNotice, type PendingNotice } from './order-notices.server';
import { loadOrder, type OrderView } from './orders.server';

/**
 * Booking (issue 10): one service for the /booking/:guideId form and POST /api/v1/orders.
 *
 * Price (docs/decisions/010-price-rule.md): the order's total is the guide's profile price at the moment of
 * booking, for one slot and the whole group, whatever the number of people; a client's slot price is not charged.
 *
 * Double booking: the insert alone decides. The partial unique index `orders_no_double_booking` (one pending or
 * confirmed order per guide, date and slot) refuses the second of two racing inserts, which becomes 409
 * TIME_CONFLICT; there is no check-then-insert window.
 */
export async function bookSlot(
  viewer: Viewer,
  input: BookingInput,
  db: Database = getDb(),
  now: Date = clockNow(),
): Promise<OrderView> {
  if (input.userId !== undefined && input.userId !== viewer.id) throw new AppError('FORBIDDEN');
  const [traveler] = await db.select().from(users).where(eq(users.id, viewer.id));
  if (!traveler || traveler.deletedAt || traveler.blockedAt) throw new AppError('TRAVELER_NOT_FOUND');
  if (traveler.type !== 'traveler') throw new AppError('FORBIDDEN');
  if (!traveler.isEmailVerified) throw new AppError('EMAIL_NOT_VERIFIED');
  const [guide] = await db.select().from(users).where(eq(users.id, input.guideId));
  if (!isBookableGuide(guide) || guide.id === traveler.id) throw new AppError('GUIDE_NOT_FOUND');
  assertInWindow(input.date, now);

  let pending: PendingNotice[] = [];
  let orderId: number;
  try {
    orderId = await db.transaction(async (tx) => {
      const [slot] = await tx
        .select({ available: availabilitySlots.available })
        .from(availabilitySlots)
        .where(
          and(
            eq(availabilitySlots.guideId, guide.id),
            eq(availabilitySlots.date, input.date),
            eq(availabilitySlots.timeSlot, input.timeSlot),
          ),
        );
      // A slot the guide has not opened cannot be booked: the same answer as a taken one (SPEC §8 Booking).
      if (!slot?.available) throw new AppError('TIME_CONFLICT');
      const [order] = await tx
        .insert(orders)
        .values({
          travelerId: traveler.id,
          guideId: guide.id,
          date: input.date,
          timeSlot: input.timeSlot,
          numberOfPeople: input.numberOfPeople,
          note: input.note ?? null,
          status: 'pending',
          totalPrice: guide.price ?? 0,
          termsAcceptedAt: now,
        })
        .returning();
      await tx.insert(orderEvents).values({
        orderId: order!.id,
        action: 'book',
        fromStatus: null,
        toStatus: 'pending',
        actorId: traveler.id,
        actorRole: 'traveler',
        at: now,
      });
      pending = [
        await recordOrderNotice(
          guide,
          'booked',
          orderNoticeFacts(order!, { traveler: traveler.name, guide: guide.name, actor: traveler.name }),
          tx,
        ),
      ];
      return order!.id;
    });
  } catch (error) {
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw new AppError('TIME_CONFLICT');
    throw error;
  }
  await deliverOrderNotices(pending);
  return loadOrder(orderId, db);
}
