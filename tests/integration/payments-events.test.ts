import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb, type Database } from '~db/client';
import { paymentEvents, payments } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { orderMoney } from '~/services/payments/ledger.server';
import { applyPaymentTransition, newMerchantTradeNo, openPayment, recordProviderEvent } from '~/services/payments/payments.server';
import type { PaymentEvent } from '~/services/payments/provider.server';
import { createGuide, createOrder, createTraveler } from '~server/seed/factories';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Provider events and payment transitions (docs/decisions/040) on the real database: stored once per provider
 * event, duplicates and out-of-order events harmless, each applied transition with its ledger entry.
 */
useTestDatabase();

let day = 0;
let travelerId: number;
let guideId: number;
beforeAll(async () => {
  travelerId = (await createTraveler()).id;
  guideId = (await createGuide()).id;
});

async function paymentFor(amount: number) {
  const order = await createOrder({ travelerId, guideId, totalPrice: amount, status: 'cancelled', date: addDays(todayInTaipei(), 5 + day++) });
  const payment = await getDb().transaction((tx) => openPayment(tx as unknown as Database, { orderId: order.id, amount, provider: 'simulator' }));
  return { order, payment };
}

const authorised = (merchantTradeNo: string, amount: number, tradeNo = `T${merchantTradeNo}`): PaymentEvent => ({
  providerEventId: `${tradeNo}:1`,
  kind: 'authorised',
  merchantTradeNo,
  providerTradeNo: tradeNo,
  amount,
  paidAt: new Date(),
  raw: { MerchantTradeNo: merchantTradeNo, RtnCode: '1', TradeAmt: String(amount) },
});

const inTx = <T>(fn: (tx: Database) => Promise<T>) => getDb().transaction((tx) => fn(tx as unknown as Database));

describe(`payment events (${testDriver})`, () => {
  it('trade numbers are at most 20 letters and digits, and differ for the same order', () => {
    const a = newMerchantTradeNo(2_147_483_647);
    expect(a).toMatch(/^[A-Za-z0-9]{1,20}$/);
    expect(newMerchantTradeNo(1)).not.toBe(newMerchantTradeNo(1));
  });

  it('an authorisation is applied once: the payment is authorised, the money held, and a repeat is a duplicate', async () => {
    const { order, payment } = await paymentFor(3000);
    const event = authorised(payment.merchantTradeNo, 3000);
    const first = await recordProviderEvent(getDb(), 'simulator', event, new Date());
    expect(first).toMatchObject({ outcome: 'applied', payment: { status: 'authorised', providerTradeNo: event.providerTradeNo } });
    expect(await recordProviderEvent(getDb(), 'simulator', event, new Date())).toMatchObject({ outcome: 'duplicate' });
    expect(await orderMoney(getDb(), order.id)).toMatchObject({ authorisedOpen: 3000, held: 3000 });
    const stored = await getDb().select().from(paymentEvents).where(eq(paymentEvents.paymentId, payment.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ outcome: 'applied', kind: 'authorised' });
  });

  it('the same callback delivered at once is stored and applied once', async () => {
    const rounds = testDriver === 'pg' ? 10 : 2;
    for (let round = 0; round < rounds; round++) {
      const { order, payment } = await paymentFor(1500);
      const event = authorised(payment.merchantTradeNo, 1500);
      const results = await Promise.all(Array.from({ length: 4 }, () => recordProviderEvent(getDb(), 'simulator', event, new Date())));
      expect(results.map((r) => r.outcome).sort()).toEqual(['applied', 'duplicate', 'duplicate', 'duplicate']);
      expect((await orderMoney(getDb(), order.id)).held).toBe(1500);
    }
  });

  it('an event for a trade not known yet stores nothing (the provider will send it again)', async () => {
    const event = authorised('LYNOSUCHPAYMENT1', 100);
    expect(await recordProviderEvent(getDb(), 'simulator', event, new Date())).toEqual({ outcome: 'unknown_payment' });
    const [row] = ((await getDb().execute(sql`select count(*)::int as n from payment_events where provider_event_id = ${event.providerEventId}`)) as unknown as { rows: { n: number }[] }).rows;
    expect(row!.n).toBe(0);
  });

  it('out of order and late: a decline after the authorisation is ignored; a payment after expiry is a stray authorisation to void; a wrong amount is not applied', async () => {
    const { payment } = await paymentFor(2000);
    await recordProviderEvent(getDb(), 'simulator', authorised(payment.merchantTradeNo, 2000), new Date());
    const decline = { ...authorised(payment.merchantTradeNo, 2000), kind: 'failed' as const, providerEventId: `T${payment.merchantTradeNo}:0` };
    expect(await recordProviderEvent(getDb(), 'simulator', decline, new Date())).toMatchObject({ outcome: 'ignored', strayAuthorisation: false });

    const late = await paymentFor(900);
    expect(await inTx((tx) => applyPaymentTransition(tx, late.payment.id, { kind: 'expire' }, { now: new Date() }))).toMatchObject({ status: 'expired' });
    expect(await recordProviderEvent(getDb(), 'simulator', authorised(late.payment.merchantTradeNo, 900), new Date())).toMatchObject({ outcome: 'ignored', strayAuthorisation: true });
    expect((await orderMoney(getDb(), late.order.id)).held).toBe(0);

    const wrong = await paymentFor(700);
    expect(await recordProviderEvent(getDb(), 'simulator', authorised(wrong.payment.merchantTradeNo, 70), new Date())).toMatchObject({ outcome: 'ignored' });
    const [still] = await getDb().select().from(payments).where(eq(payments.id, wrong.payment.id));
    expect(still!.status).toBe('unpaid');
  });

  it('capture, refunds and void move the payment and the ledger together; what does not apply changes nothing', async () => {
    const { order, payment } = await paymentFor(3000);
    const now = new Date();
    expect(await inTx((tx) => applyPaymentTransition(tx, payment.id, { kind: 'capture' }, { now }))).toBeNull();
    await recordProviderEvent(getDb(), 'simulator', authorised(payment.merchantTradeNo, 3000), now);
    expect(await inTx((tx) => applyPaymentTransition(tx, payment.id, { kind: 'capture' }, { now }))).toMatchObject({ status: 'captured', capturedAmount: 3000 });
    expect(await inTx((tx) => applyPaymentTransition(tx, payment.id, { kind: 'void' }, { now }))).toBeNull();
    expect(await inTx((tx) => applyPaymentTransition(tx, payment.id, { kind: 'refund', amount: 1500 }, { now, refundKey: 'cancel:1' }))).toMatchObject({ status: 'partly_refunded', refundedAmount: 1500 });
    expect(await inTx((tx) => applyPaymentTransition(tx, payment.id, { kind: 'refund', amount: 1501 }, { now, refundKey: 'cancel:2' }))).toBeNull();
    expect(await orderMoney(getDb(), order.id)).toMatchObject({ authorisedOpen: 0, captured: 3000, refunded: 1500, held: 1500 });

    const other = await paymentFor(1000);
    await recordProviderEvent(getDb(), 'simulator', authorised(other.payment.merchantTradeNo, 1000), now);
    expect(await inTx((tx) => applyPaymentTransition(tx, other.payment.id, { kind: 'void' }, { now }))).toMatchObject({ status: 'voided' });
    expect(await orderMoney(getDb(), other.order.id)).toMatchObject({ authorisedOpen: 0, held: 0, captured: 0 });
  });

  it('two refunds of one payment at once: both fit, or only the one that fits is applied', async () => {
    const rounds = testDriver === 'pg' ? 8 : 2;
    for (let round = 0; round < rounds; round++) {
      const { order, payment } = await paymentFor(1000);
      const now = new Date();
      await recordProviderEvent(getDb(), 'simulator', authorised(payment.merchantTradeNo, 1000), now);
      await inTx((tx) => applyPaymentTransition(tx, payment.id, { kind: 'capture' }, { now }));
      const results = await Promise.all(
        [700, 700].map((amount, i) => inTx((tx) => applyPaymentTransition(tx, payment.id, { kind: 'refund', amount }, { now, refundKey: `race:${payment.id}:${i}` }))),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await orderMoney(getDb(), order.id)).toMatchObject({ refunded: 700, held: 300 });
    }
  });
});
