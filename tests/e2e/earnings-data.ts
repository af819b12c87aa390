/**
 * The earnings tab's accounts (tests/e2e/earnings.spec.ts), made by prepare-data.ts before the server starts: a
 * guide of its own per project (the demo password) whose orders' money went through the real ledger functions:
 * one paid out, one in a payout on its way, one completed and within the hold after completion, one partly
 * refunded after completion, and one captured for a tour still to come. The payouts went to an account that is
 * then removed: the guide starts without one, and the spec adds it.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '~db/client';
import { guidePayoutAccounts } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { savePayoutAccount } from '~/services/payments/payout-accounts.server';
import { markPayoutPaid, recordAuthorisation, recordCapture, recordRefund, recordSettlement, startPayout } from '~/services/payments/ledger.server';
import { createOrder, createTraveler } from '~server/seed/factories';
import { createUnlistedGuide } from './unlisted-guide';

export const earningsGuideEmail = (project: string) => `e2e-earnings-guide-${project}@example.com`;

export async function prepareEarnings(db: Database, passwordHash: string): Promise<void> {
  for (const [p, project] of ['js-on', 'js-off'].entries()) {
    const guide = await createUnlistedGuide({ name: project === 'js-on' ? '收入導遊甲' : '收入導遊乙', email: earningsGuideEmail(project), passwordHash, lastLogin: new Date() }, db);
    const traveler = await createTraveler({ name: project === 'js-on' ? '付款旅客甲' : '付款旅客乙' }, db);
    const tx = <T>(fn: (tx: Database) => Promise<T>) => db.transaction((t) => fn(t as unknown as Database));
    const order = async (total: number, daysFromToday: number, status: 'completed' | 'confirmed', percent = 10) => {
      const o = await createOrder({ travelerId: traveler.id, guideId: guide.id, totalPrice: total, status, commissionPercent: percent, date: addDays(todayInTaipei(), daysFromToday), timeSlot: 'afternoon' }, db);
      await tx((t) => recordAuthorisation(t, { orderId: o.id, amount: total, idempotencyKey: `e2e-earnings:order:${o.id}:authorise` }));
      await tx((t) => recordCapture(t, { orderId: o.id, idempotencyKey: `e2e-earnings:order:${o.id}:capture` }));
      return o;
    };
    const settle = (o: { id: number; commissionPercent: number }) =>
      tx((t) => recordSettlement(t, { orderId: o.id, guideId: guide.id, commissionPercent: o.commissionPercent, idempotencyKey: `order:${o.id}:settle` }));
    await savePayoutAccount(db, { guideId: guide.id, bankCode: '004', accountNumber: '000111222333', now: new Date() });
    // The days differ per project so the two guides' orders never share a day and slot with each other's.
    const paid = await order(2400, -30 - p, 'completed');
    await settle(paid);
    const first = await tx((t) => startPayout(t, { guideId: guide.id, settledBefore: new Date(Date.now() + 1000) }));
    await tx((t) => markPayoutPaid(t, { payoutId: first!.payoutId, paidAt: new Date() }));
    const sent = await order(3600, -20 - p, 'completed', 15);
    await settle(sent);
    await tx((t) => startPayout(t, { guideId: guide.id, settledBefore: new Date(Date.now() + 1000) }));
    await settle(await order(1800, -10 - p, 'completed'));
    const refunded = await order(3000, -5 - p, 'completed');
    await settle(refunded);
    await tx((t) => recordRefund(t, { orderId: refunded.id, guideId: guide.id, amount: 1000, idempotencyKey: `refund:${refunded.id}:e2e` }));
    await order(2000, 10 + p, 'confirmed');
    await db.delete(guidePayoutAccounts).where(eq(guidePayoutAccounts.guideId, guide.id));
  }
}
