import { eq } from 'drizzle-orm';
import type { Database } from '~db/client';
import { payments } from '~db/schema';
import { getConfig } from '~/env.server';
import { refundOnCancel } from '~/services/booking/order-state.server';
import { signed } from '~/services/payments/check-mac-value.server';
import { createPaymentProvider } from '~/services/payments/configured-provider.server';
import { DO_ACTIONS } from '~/services/payments/ecpay-protocol.server';
import { recordSettlement } from '~/services/payments/ledger.server';
import { bookingMoneyTerms } from '~/services/payments/order-payments.server';
import { applyPaymentTransition, openPayment, type PaymentRow } from '~/services/payments/payments.server';
import { acceptCheckout, doAction, payWithCard, SIMULATOR_CARDS, SIMULATOR_MERCHANT } from '~/services/payments/simulator.server';

/**
 * The money of a demo order (issue 32), written through the same functions the product uses, so the demo's
 * payments, ledger and (with the built-in simulator) the simulator's own trades agree as if the orders had been
 * paid through the app: a payment opened at booking and authorised by the card; captured when the guide confirmed;
 * settled (guide payable and commission) when the tour was completed; a cancelled order voided before the capture,
 * or refunded by the booking terms after it and the rest settled.
 */
export type DemoMoneyStory =
  /** Booked and paid, waiting for the guide. */
  | { kind: 'authorised'; paidAt: Date }
  /** Confirmed by the guide: the card charged. */
  | { kind: 'captured'; paidAt: Date; capturedAt: Date }
  /** The tour took place: charged and settled (a ledger entry is dated when it is written: the seed's time). */
  | { kind: 'settled'; paidAt: Date; capturedAt: Date }
  /** Cancelled before the guide confirmed: the authorisation given up. */
  | { kind: 'voided'; paidAt: Date; voidedAt: Date }
  /** Cancelled by the traveler after the capture: refunded by the booking terms, the rest settled. */
  | { kind: 'refunded'; paidAt: Date; capturedAt: Date; cancelledAt: Date };

interface DemoOrder {
  id: number;
  guideId: number;
  date: string;
  timeSlot: Parameters<typeof refundOnCancel>[0]['timeSlot'];
  totalPrice: number;
  commissionPercent: number;
  createdAt: Date;
}

/** The simulator's side of a demo payment: the trade its checkout opened, paid with the test card. */
async function simulatorTrade(tx: Database, order: DemoOrder, payment: PaymentRow, paidAt: Date): Promise<string> {
  const config = getConfig();
  const start = createPaymentProvider(config).startCheckout({
    orderId: order.id,
    merchantTradeNo: payment.merchantTradeNo,
    amount: payment.amount,
    createdAt: payment.createdAt,
    itemName: `${order.date} ${order.timeSlot}`,
    callbackUrl: `${config.PUBLIC_URL}/payments/callback`,
    returnUrl: `${config.PUBLIC_URL}/payments/return/${order.id}`,
  });
  if (start.kind !== 'form') throw new Error('demo seed: the simulator opens a checkout with a form');
  const accepted = await acceptCheckout(tx, start.fields, paidAt);
  if (!accepted.ok) throw new Error(`demo seed: the simulator refused a checkout (${accepted.message})`);
  const paid = await payWithCard(tx, accepted.trade.tradeNo, SIMULATOR_CARDS.approved, paidAt);
  if (paid.outcome !== 'approved') throw new Error(`demo seed: the test card was ${paid.outcome}`);
  return accepted.trade.tradeNo;
}

/** The simulator's DoAction for a demo trade (capture, give up, refund), as the provider adapter would send it. */
async function simulatorAction(tx: Database, payment: PaymentRow, tradeNo: string, action: string, amount: number) {
  const fields = signed(
    { MerchantID: SIMULATOR_MERCHANT.merchantId, MerchantTradeNo: payment.merchantTradeNo, TradeNo: tradeNo, Action: action, TotalAmount: String(amount) },
    SIMULATOR_MERCHANT.keys,
  );
  const answer = new URLSearchParams(await doAction(tx, fields));
  if (answer.get('RtnCode') !== '1') throw new Error(`demo seed: the simulator refused ${action} (${answer.get('RtnMsg')})`);
}

async function step(tx: Database, payment: PaymentRow, transition: Parameters<typeof applyPaymentTransition>[2], at: Date, refundKey?: string) {
  const moved = await applyPaymentTransition(tx, payment.id, transition, { now: at, refundKey });
  if (!moved) throw new Error(`demo seed: payment ${payment.id} refused ${transition.kind}`);
  return moved;
}

/** Writes a demo order's payment and ledger entries for its story. Returns the payment as it ends. */
export async function seedDemoPayment(tx: Database, order: DemoOrder, story: DemoMoneyStory): Promise<PaymentRow> {
  const { provider } = bookingMoneyTerms();
  let payment = await openPayment(tx, { orderId: order.id, amount: order.totalPrice, provider });
  await tx.update(payments).set({ createdAt: order.createdAt, updatedAt: order.createdAt }).where(eq(payments.id, payment.id));
  payment = { ...payment, createdAt: order.createdAt };
  const tradeNo = provider === 'simulator' ? await simulatorTrade(tx, order, payment, story.paidAt) : `DEMO${order.id}`;
  payment = await step(tx, payment, { kind: 'authorise' }, story.paidAt);
  await tx.update(payments).set({ providerTradeNo: tradeNo }).where(eq(payments.id, payment.id));
  const atSimulator = (action: string, amount: number) => (provider === 'simulator' ? simulatorAction(tx, payment, tradeNo, action, amount) : undefined);

  if (story.kind === 'authorised') return payment;
  if (story.kind === 'voided') {
    await atSimulator(DO_ACTIONS.giveUp, payment.amount);
    return step(tx, payment, { kind: 'void' }, story.voidedAt);
  }
  await atSimulator(DO_ACTIONS.capture, payment.amount);
  payment = await step(tx, payment, { kind: 'capture' }, story.capturedAt);
  const settle = () => recordSettlement(tx, { orderId: order.id, guideId: order.guideId, commissionPercent: order.commissionPercent, idempotencyKey: `order:${order.id}:settle` });
  if (story.kind === 'settled') {
    await settle();
    return payment;
  }
  if (story.kind === 'refunded') {
    // What the traveler's cancellation gives back by the terms at that time; the rest is settled.
    const { amount } = refundOnCancel({ ...order, totalPrice: payment.capturedAmount }, 'traveler', story.cancelledAt);
    if (amount > 0) {
      await atSimulator(DO_ACTIONS.refund, amount);
      payment = await step(tx, payment, { kind: 'refund', amount }, story.cancelledAt, `order:${order.id}:cancel:refund`);
    }
    if (amount < payment.capturedAmount) await settle();
  }
  return payment;
}
