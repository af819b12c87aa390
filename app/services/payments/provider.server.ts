import type { PaymentProviderName } from '~/lib/payments';

/**
 * The payment provider boundary (issue 32, docs/decisions/039), in the spirit of Medusa's payment providers: the
 * product asks a provider to start a checkout, to verify what it sends back, to capture, void or refund, and what it
 * knows of a trade. Nothing here touches our database: the caller (the outbox worker for capture, void and refund;
 * the callback route for callbacks) records the outcome. None of these runs inside a database transaction.
 * The configured provider: configured-provider.server.ts.
 */

/** What the provider needs of the order and of this payment attempt to open a checkout. */
export interface CheckoutRequest {
  orderId: number;
  /** Our number for the trade at the provider (≤ 20 letters and digits), the key of a repeated checkout. */
  merchantTradeNo: string;
  amount: number;
  /** When this payment attempt was made (ECPay wants the merchant's trade time). */
  createdAt: Date;
  /** What the traveler buys, shown on the provider's page (one line). */
  itemName: string;
  /** Where the provider posts its server-to-server result. */
  callbackUrl: string;
  /** Where the traveler's browser comes back after paying (or giving up). */
  returnUrl: string;
}

/** How the browser gets to the provider's page: a form to post (our page auto-submits it with JS), or a redirect. */
export type CheckoutStart =
  | { kind: 'form'; action: string; fields: Record<string, string> }
  | { kind: 'redirect'; url: string };

/** A provider's callback, verified and normalised. */
export interface PaymentEvent {
  /** Stored unique per provider: a repeated delivery of this event finds its row. */
  providerEventId: string;
  kind: 'authorised' | 'failed';
  merchantTradeNo: string;
  providerTradeNo: string;
  amount: number;
  /** The provider's own time of payment, when it gives one. */
  paidAt: Date | null;
  /** Every field as received (kept in payment_events.payload). */
  raw: Record<string, string>;
}

export type CallbackVerdict =
  | { ok: true; event: PaymentEvent; /** The answer the provider expects once the event is stored. */ reply: string }
  | { ok: false; reason: 'malformed' | 'bad_signature' | 'wrong_merchant' };

/** A trade as known to the provider: for reconciliation and to settle doubt after a timeout. */
export interface TradeInfo {
  merchantTradeNo: string;
  providerTradeNo: string | null;
  status: 'unpaid' | 'paid' | 'failed';
  amount: number;
  paidAt: Date | null;
  raw: Record<string, string>;
}

/** The trade an action is about: our number and the provider's. */
export interface TradeRef {
  merchantTradeNo: string;
  providerTradeNo: string;
}

/** A capture, void or refund the provider answered. `ok: false` is a refusal (not retried); errors mean "try again". */
export type ActionResult = { ok: true } | { ok: false; code: string; message: string };

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  startCheckout(request: CheckoutRequest): CheckoutStart;
  /** The raw body exactly as received and the request's headers; never trusts anything it cannot verify. */
  verifyCallback(rawBody: string, headers: Headers): CallbackVerdict;
  capture(trade: TradeRef, amount: number): Promise<ActionResult>;
  void(trade: TradeRef, amount: number): Promise<ActionResult>;
  refund(trade: TradeRef, amount: number): Promise<ActionResult>;
  queryTrade(merchantTradeNo: string): Promise<TradeInfo>;
}
