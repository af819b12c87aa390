/**
 * Money for tests/e2e/admin-finance.spec.ts (issue 32), made by prepare-data before the server starts, with the
 * product's own functions: per project, a guide of its own whose completed order was paid with the simulator's test
 * card (its signed callback verified by the ECPay adapter and recorded), captured, settled, and paid out (a payout
 * in transit for the spec to mark paid); and one payment we record as captured that the simulator never saw, so
 * the reconciliation has a mismatch to show.
 */
import type { Database } from '~db/client';
import { parseConfig } from '~/env.server';
import { createPaymentProvider } from '~/services/payments/configured-provider.server';
import { recordSettlement, startPayout } from '~/services/payments/ledger.server';
import { savePayoutAccount } from '~/services/payments/payout-accounts.server';
import { applyPaymentTransition, openPayment, recordProviderEvent } from '~/services/payments/payments.server';
import { acceptCheckout, payWithCard, SIMULATOR_CARDS } from '~/services/payments/simulator.server';
import { createCompletedOrder, createTraveler } from '~server/seed/factories';
import { createUnlistedGuide } from './unlisted-guide';

export const E2E_PAYOUT_GUIDES = { 'js-on': '撥款導遊甲', 'js-off': '撥款導遊乙' } as const;

export async function prepareFinance(db: Database): Promise<void> {
  const provider = createPaymentProvider(parseConfig({ PUBLIC_URL: 'http://localhost', SESSION_SECRET: 'x'.repeat(40) }));
  const inTx = <T>(fn: (tx: Database) => Promise<T>) => db.transaction((tx) => fn(tx as unknown as Database));
  const traveler = await createTraveler({ name: '付款旅客', email: 'e2e-finance-traveler@example.com' }, db);
  const now = new Date();
  let n = 0;
  for (const [project, name] of Object.entries(E2E_PAYOUT_GUIDES)) {
    const guide = await createUnlistedGuide({ name, email: `e2e-payout-guide-${project}@example.com` }, db);
    const order = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id, totalPrice: 2400 + 600 * n++ }, db);
    const payment = await openPayment(db, { orderId: order.id, amount: order.totalPrice, provider: 'simulator' });
    const start = provider.startCheckout({
      orderId: order.id,
      merchantTradeNo: payment.merchantTradeNo,
      amount: payment.amount,
      createdAt: payment.createdAt,
      itemName: '大稻埕散步導覽',
      callbackUrl: 'http://localhost/payments/callback',
      returnUrl: 'http://localhost/booking-success',
    });
    if (start.kind !== 'form') throw new Error('finance-data: expected a checkout form');
    const accepted = await acceptCheckout(db, start.fields, now);
    if (!accepted.ok) throw new Error(`finance-data: ${accepted.message}`);
    const paid = await payWithCard(db, accepted.trade.tradeNo, SIMULATOR_CARDS.approved, now);
    const delivery = paid.deliveries.find((d) => d.target === 'server')!;
    const verdict = provider.verifyCallback(new URLSearchParams(delivery.fields).toString(), new Headers({ 'content-type': 'application/x-www-form-urlencoded' }));
    if (!verdict.ok) throw new Error(`finance-data: ${verdict.reason}`);
    await recordProviderEvent(db, 'simulator', verdict.event, now);
    await inTx((tx) => applyPaymentTransition(tx, payment.id, { kind: 'capture' }, { now }));
    await inTx((tx) => recordSettlement(tx, { orderId: order.id, guideId: guide.id, commissionPercent: order.commissionPercent, idempotencyKey: `order:${order.id}:settle` }));
    await savePayoutAccount(db, { guideId: guide.id, bankCode: '812', accountNumber: `0099${project === 'js-on' ? '1' : '2'}0012345`, now });
    const payout = await inTx((tx) => startPayout(tx, { guideId: guide.id, settledBefore: new Date(now.getTime() + 86_400_000) }));
    if (!payout) throw new Error('finance-data: no payout');
  }
  const ghostGuide = await createUnlistedGuide({ name: '對帳導遊', email: 'e2e-reconcile-guide@example.com' }, db);
  const ghostOrder = await createCompletedOrder({ travelerId: traveler.id, guideId: ghostGuide.id, totalPrice: 1700 }, db);
  const ghost = await openPayment(db, { orderId: ghostOrder.id, amount: 1700, provider: 'simulator' });
  await inTx((tx) => applyPaymentTransition(tx, ghost.id, { kind: 'authorise' }, { now }));
  await inTx((tx) => applyPaymentTransition(tx, ghost.id, { kind: 'capture' }, { now }));
}
