import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '~db/client';
import { simulatorTrades, type SIMULATOR_TRADE_STATUSES } from '~db/schema';
import { hasValidCheckMacValue, signed, type EcpayKeys } from './check-mac-value.server';
import {
  CALLBACK_ACCEPTED,
  DO_ACTIONS,
  ECPAY_PATHS,
  ecpayDateTime,
  formFields,
  MERCHANT_TRADE_NO,
  RTN_SUCCESS,
  TRADE_STATUS,
} from './ecpay-protocol.server';
import { postForm, ProviderUnavailableError } from './form-post.server';

/**
 * The payment simulator (issue 32, docs/decisions/039): a payment provider of our own that speaks ECPay's
 * all-in-one protocol from the provider's side (the same fields, CheckMacValue, callbacks and DoAction answers),
 * so the product takes "payments" with no set-up and its tests exercise the real ECPay adapter. It keeps its own
 * books (simulator_trades), as a provider would. Test mode: no real money moves, and its pages say so.
 *
 * Its card page and HTTP paths are routes (the wiring step); this module is what they call.
 */
export const SIMULATOR_PATH = '/payments/simulator';

/** The simulator's merchant: fixed, public test keys (they protect nothing: no real money moves). */
export const SIMULATOR_MERCHANT: { merchantId: string; keys: EcpayKeys } = {
  merchantId: '9990001',
  keys: { hashKey: 'lvyouSimulator16', hashIv: 'testModeNoMoney1' },
};

/** ECPay's stage test card is approved; the other is declined; any other number is refused as not a test card. */
export const SIMULATOR_CARDS = { approved: '4311952222222222', declined: '4000000000000002' } as const;

export type SimulatorTradeStatus = (typeof SIMULATOR_TRADE_STATUSES)[number];

/**
 * Test switches (tests and the demo only), read when a checkout is accepted and kept with its trade:
 * - duplicateCallback: the server callback is sent twice;
 * - browserReturnFirst: the browser comes back before the server callback is sent (out of order);
 * - callbackDelayMs: the server callback is late by this much;
 * - failRefunds: DoAction R answers a refusal.
 */
export interface SimulatorSwitches {
  duplicateCallback?: boolean;
  browserReturnFirst?: boolean;
  callbackDelayMs?: number;
  failRefunds?: boolean;
}

const SWITCHES_KEY = Symbol.for('lvyou.paymentSimulator.switches');
type WithSwitches = typeof globalThis & { [SWITCHES_KEY]?: SimulatorSwitches };

export function setSimulatorSwitches(switches: SimulatorSwitches | undefined): void {
  (globalThis as WithSwitches)[SWITCHES_KEY] = switches;
}
function currentSwitches(): SimulatorSwitches {
  return { ...((globalThis as WithSwitches)[SWITCHES_KEY] ?? {}) };
}

type TradeRow = typeof simulatorTrades.$inferSelect;

/** What the card page shows of a trade. */
export interface SimulatorTradeView {
  tradeNo: string;
  merchantTradeNo: string;
  amount: number;
  itemName: string;
  status: SimulatorTradeStatus;
  /** Where "cancel and go back" leads (the merchant's ClientBackURL). */
  backUrl: string | null;
}

const view = (t: TradeRow): SimulatorTradeView => ({
  tradeNo: t.tradeNo,
  merchantTradeNo: t.merchantTradeNo,
  amount: t.amount,
  itemName: t.checkout.ItemName ?? '',
  status: t.status,
  backUrl: t.checkout.ClientBackURL || null,
});

const REQUIRED_CHECKOUT_FIELDS = ['MerchantID', 'MerchantTradeNo', 'MerchantTradeDate', 'PaymentType', 'TotalAmount', 'TradeDesc', 'ItemName', 'ReturnURL', 'ChoosePayment', 'CheckMacValue'] as const;

const isHttpUrl = (value: string | undefined) => {
  try {
    return !!value && ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

function newTradeNo(now: Date): string {
  // ECPay's TradeNo is a run of digits that starts with the date: yyMMddHHmmss and four random digits.
  const stamp = ecpayDateTime(now).replace(/\D/g, '').slice(2);
  return `${stamp}${crypto.randomInt(0, 10_000).toString().padStart(4, '0')}`;
}

/**
 * The checkout form arrives (AioCheckOut): checked as ECPay checks it, then a trade awaiting the card. The same
 * checkout posted again (the browser's back button, a double click) is the same trade; a MerchantTradeNo used for
 * another amount or after its card was tried is refused, as ECPay refuses a repeated trade number.
 */
export async function acceptCheckout(
  db: Database,
  fields: Record<string, string>,
  now: Date,
): Promise<{ ok: true; trade: SimulatorTradeView } | { ok: false; message: string }> {
  if (REQUIRED_CHECKOUT_FIELDS.some((name) => !fields[name])) return { ok: false, message: 'missing parameters' };
  if (fields.MerchantID !== SIMULATOR_MERCHANT.merchantId) return { ok: false, message: 'unknown merchant' };
  if (!hasValidCheckMacValue(fields, SIMULATOR_MERCHANT.keys)) return { ok: false, message: 'CheckMacValue error' };
  const amount = Number(fields.TotalAmount);
  if (!/^[1-9][0-9]{0,8}$/.test(fields.TotalAmount!) || !Number.isSafeInteger(amount)) return { ok: false, message: 'TotalAmount error' };
  if (!MERCHANT_TRADE_NO.test(fields.MerchantTradeNo!)) return { ok: false, message: 'MerchantTradeNo error' };
  if (fields.PaymentType !== 'aio' || !['Credit', 'ALL'].includes(fields.ChoosePayment!)) return { ok: false, message: 'only credit cards are simulated' };
  if (!isHttpUrl(fields.ReturnURL) || (fields.OrderResultURL && !isHttpUrl(fields.OrderResultURL)) || (fields.ClientBackURL && !isHttpUrl(fields.ClientBackURL))) {
    return { ok: false, message: 'URL error' };
  }
  const { CheckMacValue: _mac, ...checkout } = fields;
  for (let attempt = 0; attempt < 5; attempt++) {
    const [created] = await db
      .insert(simulatorTrades)
      .values({ merchantId: fields.MerchantID!, merchantTradeNo: fields.MerchantTradeNo!, tradeNo: newTradeNo(now), amount, checkout, switches: { ...currentSwitches() } })
      .onConflictDoNothing()
      .returning();
    if (created) return { ok: true, trade: view(created) };
    const [existing] = await db
      .select()
      .from(simulatorTrades)
      .where(and(eq(simulatorTrades.merchantId, fields.MerchantID!), eq(simulatorTrades.merchantTradeNo, fields.MerchantTradeNo!)));
    if (existing) {
      return existing.amount === amount && existing.status === 'awaiting_card' ? { ok: true, trade: view(existing) } : { ok: false, message: 'MerchantTradeNo is used' };
    }
    // Otherwise the random TradeNo collided: draw another.
  }
  return { ok: false, message: 'busy, try again' };
}

export async function findTrade(db: Database, tradeNo: string): Promise<SimulatorTradeView | null> {
  const [row] = await db.select().from(simulatorTrades).where(eq(simulatorTrades.tradeNo, tradeNo));
  return row ? view(row) : null;
}

/** A message the simulator sends after a card is tried: server to server (ReturnURL), or the browser's return. */
export interface CallbackDelivery {
  target: 'server' | 'browser';
  url: string;
  fields: Record<string, string>;
  /** The server callback is late by this much (a test switch). */
  delayMs: number;
}

/** The result ECPay posts for a trade (ReturnURL and OrderResultURL carry the same signed fields). */
function resultFields(trade: TradeRow): Record<string, string> {
  const paid = trade.status !== 'declined';
  return signed(
    {
      MerchantID: trade.merchantId,
      MerchantTradeNo: trade.merchantTradeNo,
      StoreID: '',
      RtnCode: paid ? RTN_SUCCESS : '10100058',
      RtnMsg: paid ? 'Succeeded' : 'Declined (test card)',
      TradeNo: trade.tradeNo,
      TradeAmt: String(trade.amount),
      PaymentDate: ecpayDateTime(trade.paymentDate ?? trade.updatedAt),
      PaymentType: 'Credit_CreditCard',
      PaymentTypeChargeFee: '0',
      TradeDate: ecpayDateTime(trade.createdAt),
      SimulatePaid: '0',
      CustomField1: trade.checkout.CustomField1 ?? '',
      CustomField2: trade.checkout.CustomField2 ?? '',
      CustomField3: trade.checkout.CustomField3 ?? '',
      CustomField4: trade.checkout.CustomField4 ?? '',
    },
    SIMULATOR_MERCHANT.keys,
  );
}

function deliveriesFor(trade: TradeRow): CallbackDelivery[] {
  const switches = trade.switches as SimulatorSwitches;
  const fields = resultFields(trade);
  const server: CallbackDelivery = { target: 'server', url: trade.checkout.ReturnURL!, fields, delayMs: Math.max(0, Number(switches.callbackDelayMs ?? 0)) };
  const servers = switches.duplicateCallback ? [server, { ...server }] : [server];
  const backUrl = trade.checkout.OrderResultURL || trade.checkout.ClientBackURL;
  const browser: CallbackDelivery[] = backUrl ? [{ target: 'browser', url: backUrl, fields, delayMs: 0 }] : [];
  return switches.browserReturnFirst ? [...browser, ...servers] : [...servers, ...browser];
}

export type CardOutcome = 'approved' | 'declined' | 'not_a_test_card' | 'not_open';

/**
 * The traveler submits the card page: the test card is approved (the trade is authorised), the decline card is
 * declined; either way the result goes to the merchant (the deliveries, in the order the switches say). A trade is
 * tried once: afterwards (or for an unknown number) nothing changes.
 */
export async function payWithCard(
  db: Database,
  tradeNo: string,
  cardNumber: string,
  now: Date,
): Promise<{ outcome: CardOutcome; deliveries: CallbackDelivery[]; trade: SimulatorTradeView | null }> {
  const digits = cardNumber.replace(/[\s-]/g, '');
  const approved = digits === SIMULATOR_CARDS.approved;
  if (!approved && digits !== SIMULATOR_CARDS.declined) {
    return { outcome: 'not_a_test_card', deliveries: [], trade: await findTrade(db, tradeNo) };
  }
  const [row] = await db
    .update(simulatorTrades)
    .set({ status: approved ? 'authorised' : 'declined', cardLast4: digits.slice(-4), paymentDate: now, updatedAt: now })
    .where(and(eq(simulatorTrades.tradeNo, tradeNo), eq(simulatorTrades.status, 'awaiting_card')))
    .returning();
  if (!row) return { outcome: 'not_open', deliveries: [], trade: await findTrade(db, tradeNo) };
  return { outcome: approved ? 'approved' : 'declined', deliveries: deliveriesFor(row), trade: view(row) };
}

/**
 * Sends one server callback as ECPay does: a signed form POST, with a deadline, until the merchant answers `1|OK`
 * (ECPay retries later; here up to `attempts` times, `retryDelayMs` apart). Says whether it was accepted.
 */
export async function deliverServerCallback(
  delivery: CallbackDelivery,
  options: { attempts?: number; retryDelayMs?: number; timeoutMs?: number } = {},
): Promise<{ accepted: boolean; attempts: number }> {
  const attempts = options.attempts ?? 3;
  if (delivery.delayMs) await new Promise((r) => setTimeout(r, delivery.delayMs));
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const { status, body } = await postForm(delivery.url, delivery.fields, { timeoutMs: options.timeoutMs ?? 10_000, maxBytes: 4096 });
      if (status === 200 && body.trim() === CALLBACK_ACCEPTED) return { accepted: true, attempts: attempt };
    } catch (error) {
      if (!(error instanceof ProviderUnavailableError)) throw error;
    }
    if (attempt < attempts) await new Promise((r) => setTimeout(r, options.retryDelayMs ?? 1000));
  }
  return { accepted: false, attempts };
}

const answer = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/**
 * DoAction (server to server), answered as ECPay answers it: a form with RtnCode 1 on success. C captures an
 * authorised trade (again: already done, still 1); N gives up an authorised trade; E undoes a capture; R refunds
 * part or all of a captured trade (refused by the failRefunds switch).
 */
export async function doAction(db: Database, fields: Record<string, string>): Promise<string> {
  const base = { MerchantID: fields.MerchantID ?? '', MerchantTradeNo: fields.MerchantTradeNo ?? '', TradeNo: fields.TradeNo ?? '' };
  const refuse = (code: string, message: string) => answer({ ...base, RtnCode: code, RtnMsg: message });
  if (fields.MerchantID !== SIMULATOR_MERCHANT.merchantId || !hasValidCheckMacValue(fields, SIMULATOR_MERCHANT.keys)) return refuse('10200043', 'CheckMacValue error');
  const amount = Number(fields.TotalAmount);
  if (!Number.isSafeInteger(amount) || amount <= 0) return refuse('10200050', 'TotalAmount error');
  return db.transaction(async (tx) => {
    const [trade] = await tx
      .select()
      .from(simulatorTrades)
      .where(and(eq(simulatorTrades.merchantId, base.MerchantID), eq(simulatorTrades.merchantTradeNo, base.MerchantTradeNo), eq(simulatorTrades.tradeNo, base.TradeNo)))
      .for('update');
    if (!trade) return refuse('10200047', 'trade not found');
    const set = (patch: Partial<TradeRow>) => tx.update(simulatorTrades).set({ ...patch, updatedAt: sql`now()` }).where(eq(simulatorTrades.id, trade.id));
    const ok = () => answer({ ...base, RtnCode: RTN_SUCCESS, RtnMsg: 'Succeeded' });
    switch (fields.Action) {
      case DO_ACTIONS.capture:
        if (trade.status === 'closed') return ok();
        if (trade.status !== 'authorised') return refuse('10200115', 'not authorised');
        if (amount !== trade.amount) return refuse('10200050', 'TotalAmount must be the authorised amount');
        await set({ status: 'closed' });
        return ok();
      case DO_ACTIONS.giveUp:
        if (trade.status === 'given_up') return ok();
        if (trade.status !== 'authorised') return refuse('10200115', 'not authorised');
        await set({ status: 'given_up' });
        return ok();
      case DO_ACTIONS.cancelCapture:
        if (trade.status !== 'closed' || trade.refundedAmount > 0) return refuse('10200115', 'not captured');
        await set({ status: 'authorised' });
        return ok();
      case DO_ACTIONS.refund:
        if ((trade.switches as SimulatorSwitches).failRefunds) return refuse('10200163', 'refund failed (test switch)');
        if (trade.status !== 'closed') return refuse('10200115', 'not captured');
        if (amount > trade.amount - trade.refundedAmount) return refuse('10200050', 'more than is left to refund');
        await set({ refundedAmount: trade.refundedAmount + amount });
        return ok();
      default:
        return refuse('10200073', 'Action error');
    }
  });
}

/** QueryTradeInfo (server to server): the trade as the simulator knows it, signed. */
export async function queryTradeInfo(db: Database, fields: Record<string, string>, now: Date): Promise<string> {
  if (fields.MerchantID !== SIMULATOR_MERCHANT.merchantId || !hasValidCheckMacValue(fields, SIMULATOR_MERCHANT.keys)) {
    return answer({ MerchantID: fields.MerchantID ?? '', MerchantTradeNo: fields.MerchantTradeNo ?? '', TradeStatus: '10200047', TradeAmt: '0' });
  }
  // As ECPay does, a query must be fresh (TimeStamp within three minutes).
  if (Math.abs(now.getTime() / 1000 - Number(fields.TimeStamp)) > 180) {
    return answer(signed({ MerchantID: fields.MerchantID, MerchantTradeNo: fields.MerchantTradeNo ?? '', TradeStatus: '10200047', TradeAmt: '0' }, SIMULATOR_MERCHANT.keys));
  }
  const [trade] = await db
    .select()
    .from(simulatorTrades)
    .where(and(eq(simulatorTrades.merchantId, fields.MerchantID), eq(simulatorTrades.merchantTradeNo, fields.MerchantTradeNo ?? '')));
  const status = !trade || trade.status === 'awaiting_card' ? TRADE_STATUS.unpaid : trade.status === 'declined' ? TRADE_STATUS.failed : TRADE_STATUS.paid;
  return answer(
    signed(
      {
        MerchantID: fields.MerchantID,
        MerchantTradeNo: fields.MerchantTradeNo ?? '',
        StoreID: '',
        TradeNo: trade?.tradeNo ?? '',
        TradeAmt: String(trade?.amount ?? 0),
        PaymentDate: trade?.paymentDate && status === TRADE_STATUS.paid ? ecpayDateTime(trade.paymentDate) : '',
        PaymentType: trade ? 'Credit_CreditCard' : '',
        HandlingCharge: '0',
        PaymentTypeChargeFee: '0',
        TradeDate: trade ? ecpayDateTime(trade.createdAt) : '',
        TradeStatus: status,
        ItemName: trade?.checkout.ItemName ?? '',
        CustomField1: trade?.checkout.CustomField1 ?? '',
        CustomField2: '',
        CustomField3: '',
        CustomField4: '',
      },
      SIMULATOR_MERCHANT.keys,
    ),
  );
}

/**
 * The simulator's server-to-server paths (under SIMULATOR_PATH, or on its own port): the raw form body in, the
 * answer out. The checkout path is the card page's (a route), not this.
 */
export async function handleSimulatorApi(db: Database, path: string, rawBody: string, now: Date): Promise<{ status: number; body: string }> {
  const fields = formFields(rawBody);
  if (path === ECPAY_PATHS.doAction) return { status: 200, body: await doAction(db, fields) };
  if (path === ECPAY_PATHS.queryTradeInfo) return { status: 200, body: await queryTradeInfo(db, fields, now) };
  return { status: 404, body: 'Not Found' };
}
