/**
 * The fixed lists of money (issue 32, docs/decisions/038–040), defined once: db/schema.ts builds its column checks
 * from them, the services and (later) the pages and the API read them. Pure: the browser may import it.
 */

/**
 * A payment's state beside its order's (docs/decisions/040):
 *   unpaid → authorised → captured → partly_refunded → refunded
 *   unpaid → failed (declined; a new attempt is a new payment) · unpaid → expired (the payment window passed)
 *   authorised → voided (declined, expired or cancelled before capture)
 */
export const PAYMENT_STATUSES = ['unpaid', 'authorised', 'captured', 'partly_refunded', 'refunded', 'voided', 'failed', 'expired'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** The statuses in which an order is paid for, as its traveler reads it (the trip card): money authorised or charged and kept. */
export const PAID_FOR_STATUSES: readonly PaymentStatus[] = ['authorised', 'captured', 'partly_refunded'];

/** The payment providers (docs/decisions/039): ECPay's all-in-one checkout, or our own test-mode simulator. */
export const PAYMENT_PROVIDERS = ['simulator', 'ecpay'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** What a stored provider event did: applied; a duplicate of one already stored; refused by the state machine. */
export const PAYMENT_EVENT_OUTCOMES = ['applied', 'duplicate', 'ignored'] as const;
export type PaymentEventOutcome = (typeof PAYMENT_EVENT_OUTCOMES)[number];

/**
 * The ledger's accounts (docs/decisions/038). A posting's amount is what flows INTO its account, so an account's
 * balance (the sum of its postings) is what it holds; the outside world's accounts run negative.
 *   provider_authorised   −(card authorisations open at the provider)            platform, ≤ 0
 *   provider_clearing     −(money captured through the provider)                platform, ≤ 0
 *   traveler_funds_held   travelers' money authorised or captured, not yet settled platform, ≥ 0
 *   guide_payable         a guide's earned net not yet paid out                  per guide, ≥ 0 (checked under lock)
 *   platform_commission   the platform's commission                             platform
 *   refunds               money given back to travelers                          platform, ≥ 0
 *   payouts_in_transit    payouts sent to the bank, not yet confirmed paid       platform, ≥ 0
 *   guide_paid_out        money paid into a guide's bank account                 per guide, ≥ 0
 */
export const LEDGER_ACCOUNT_KINDS = [
  'provider_authorised',
  'provider_clearing',
  'traveler_funds_held',
  'guide_payable',
  'platform_commission',
  'refunds',
  'payouts_in_transit',
  'guide_paid_out',
] as const;
export type LedgerAccountKind = (typeof LEDGER_ACCOUNT_KINDS)[number];

/** The accounts that belong to one guide (owner = the guide's user id); the others are the platform's (no owner). */
export const GUIDE_LEDGER_ACCOUNT_KINDS = ['guide_payable', 'guide_paid_out'] as const satisfies readonly LedgerAccountKind[];

/** One kind per money movement of issue 32; every entry is one of these. */
export const LEDGER_ENTRY_KINDS = ['authorise', 'capture', 'void', 'refund', 'settle', 'payout', 'payout_paid'] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

/** A payout: sent to the bank (in transit), then marked paid by an admin. */
export const PAYOUT_STATUSES = ['in_transit', 'paid'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/**
 * A refund's call to the provider (docs/decisions/040, "A refund in doubt"): written before the call, so a run that
 * dies after the provider refunded and before the ledger heard of it is found, never sent twice.
 *   calling     the call is being made (or the process died during it)
 *   in_doubt    the provider may have refunded and we do not know: an admin checks at the provider and settles it
 *   not_sent    the provider certainly did not refund (refused, or never reached): it may be sent again
 *   done        refunded and recorded in the ledger
 */
export const REFUND_ATTEMPT_STATES = ['calling', 'in_doubt', 'not_sent', 'done'] as const;
export type RefundAttemptState = (typeof REFUND_ATTEMPT_STATES)[number];
