import { z } from 'zod';
import { LEDGER_ACCOUNT_KINDS, PAYMENT_PROVIDERS, PAYMENT_STATUSES, PAYOUT_STATUSES } from '~/lib/payments';
import { paginationSchema } from './pagination';

/**
 * The admin's finance area (issue 32): /admin/finance/* and /api/v1/admin/{ledger,payments,payouts,reconciliation}.
 * The list filters come from the URL of a plain GET form or an API query; empty values count as absent; days are
 * Taiwan days (YYYY-MM-DD, both included); 20 rows a page.
 */
export const FINANCE_PAGE_SIZE = 20;

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blank, schema.optional());
const day = z.iso.date({ error: 'validation.invalid' });
const page = optional(
  z.coerce.number({ error: 'validation.invalid' }).int({ error: 'validation.invalid' }).min(1, { error: 'validation.invalid' }).max(100_000, { error: 'validation.invalid' }),
).transform((v) => v ?? 1);

/** Payments: by status and by the day the payment was opened (a range typed backwards is read in order). */
export const financePaymentQuerySchema = z
  .object({
    status: optional(z.enum(PAYMENT_STATUSES, { error: 'validation.invalid' })),
    from: optional(day),
    to: optional(day),
    page,
  })
  .transform((q) => (q.from && q.to && q.from > q.to ? { ...q, from: q.to, to: q.from } : q));
export type FinancePaymentQuery = z.output<typeof financePaymentQuerySchema>;

export const financePayoutQuerySchema = z.object({
  status: optional(z.enum(PAYOUT_STATUSES, { error: 'validation.invalid' })),
  page,
});
export type FinancePayoutQuery = z.output<typeof financePayoutQuerySchema>;

/** The payouts page's one form: mark a payout paid (a plain POST per row). */
export const markPayoutPaidSchema = z.object({
  intent: z.literal('paid', { error: 'validation.invalid' }),
  payoutId: z.coerce.number({ error: 'validation.invalid' }).int({ error: 'validation.invalid' }).min(1, { error: 'validation.invalid' }).max(2_147_483_647, { error: 'validation.invalid' }),
});

/** The reconciliation page's one form: run it now. */
export const runReconciliationSchema = z.object({ intent: z.literal('run', { error: 'validation.invalid' }) });

const ntd = z.number().int().describe('New Taiwan dollars');
const ntdPositive = z.number().int().min(0).describe('New Taiwan dollars');
const time = z.iso.datetime({ offset: true });

export const ledgerOverviewData = z.object({
  heldForTravelers: ntdPositive.describe('Travelers’ money authorised or captured and not yet settled or refunded (traveler_funds_held)'),
  owedToGuides: ntdPositive.describe('The guides’ earned net not yet paid out: the sum of every guide’s payable'),
  guidesOwed: z.number().int().min(0).describe('How many guides have a payable balance above zero'),
  platformCommission: ntd.describe('The platform’s commission (platform_commission)'),
  refunds: ntdPositive.describe('Money given back to travelers'),
  payoutsInTransit: ntdPositive.describe('Payouts sent to the bank and not yet marked paid'),
  paidOut: ntdPositive.describe('Money paid into guides’ bank accounts'),
  providerClearing: ntdPositive.describe('Money captured through the provider (the negated provider_clearing balance)'),
  providerAuthorised: ntdPositive.describe('Card authorisations open at the provider (the negated provider_authorised balance)'),
  total: ntd.describe('The sum of every account’s balance: 0 when the ledger balances'),
  balanced: z.boolean(),
  accounts: z
    .array(z.object({ kind: z.enum(LEDGER_ACCOUNT_KINDS), ownerId: z.number().int().nullable(), balance: ntd }))
    .describe('Every account’s balance (a posting is what flows into its account)'),
});
export type LedgerOverview = z.output<typeof ledgerOverviewData>;

const party = z.object({ id: z.number().int(), name: z.string() });

export const financePaymentRow = z.object({
  id: z.number().int(),
  orderId: z.number().int(),
  traveler: party,
  guide: party,
  amount: ntdPositive,
  captured: ntdPositive,
  refunded: ntdPositive,
  status: z.enum(PAYMENT_STATUSES),
  provider: z.enum(PAYMENT_PROVIDERS),
  merchantTradeNo: z.string().describe('Our trade number at the provider'),
  providerTradeNo: z.string().nullable().describe('The provider’s own number for the trade (ECPay TradeNo), once it has answered'),
  createdAt: time,
  authorisedAt: time.nullable(),
  capturedAt: time.nullable(),
  updatedAt: time,
});
export type FinancePaymentRow = z.output<typeof financePaymentRow>;

export const financePaymentListData = z.object({ payments: z.array(financePaymentRow), pagination: paginationSchema });

export const financePayoutRow = z.object({
  id: z.number().int(),
  guide: party,
  amount: ntdPositive,
  bankCode: z.string(),
  accountNumberMasked: z.string().describe('The last four digits; the full number is only in the bank-transfer CSV'),
  status: z.enum(PAYOUT_STATUSES),
  createdAt: time,
  paidAt: time.nullable(),
  orders: z.number().int().min(0).describe('How many orders’ earnings (or deductions) the payout carries'),
});
export type FinancePayoutRow = z.output<typeof financePayoutRow>;

export const financePayoutListData = z.object({ payouts: z.array(financePayoutRow), pagination: paginationSchema });

export const markPayoutPaidData = z.object({
  payout: financePayoutRow,
  changed: z.boolean().describe('false: the payout was already paid, nothing changed'),
});

export const RECONCILIATION_MISMATCH_KINDS = ['provider_not_paid', 'amount_differs', 'stray_payment', 'ledger_differs'] as const;
export type ReconciliationMismatchKind = (typeof RECONCILIATION_MISMATCH_KINDS)[number];

export const reconciliationMismatch = z.object({
  kind: z.enum(RECONCILIATION_MISMATCH_KINDS).describe(
    'provider_not_paid: we think authorised or captured, the provider says unpaid or failed; amount_differs: the provider’s amount is not the payment’s; ' +
      'stray_payment: the provider says paid, we think failed or expired; ledger_differs: the ledger’s figures for the order are not the payment row’s',
  ),
  paymentId: z.number().int(),
  orderId: z.number().int(),
  merchantTradeNo: z.string(),
  ours: z.object({ status: z.enum(PAYMENT_STATUSES), amount: ntd, captured: ntd, refunded: ntd }),
  provider: z.object({ status: z.enum(['unpaid', 'paid', 'failed']), amount: ntd }).nullable(),
  ledger: z.object({ authorisedOpen: ntd, captured: ntd, refunded: ntd }).nullable(),
});
export type ReconciliationMismatch = z.output<typeof reconciliationMismatch>;

export const reconciliationRunData = z.object({
  id: z.number().int(),
  ranAt: time,
  since: time.describe('The period checked: payments opened or changed from this time to ranAt'),
  checked: z.number().int().min(0).describe('Payments the provider answered about'),
  unreachable: z.number().int().min(0).describe('Payments the provider could not be asked about (reported, not counted as mismatches)'),
  mismatches: z.array(reconciliationMismatch),
  actorId: z.number().int().nullable().describe('The admin who ran it now; null for the daily job'),
});
export type ReconciliationRunView = z.output<typeof reconciliationRunData>;

export const reconciliationLatestData = z.object({ run: reconciliationRunData.nullable() });
export const reconciliationRunResultData = z.object({ run: reconciliationRunData });

/** What an admin found at the provider about a refund in doubt (app/services/payments/refund-attempts.server.ts). */
export const REFUND_RESOLUTIONS = ['refunded', 'not_refunded'] as const;
export type RefundResolution = (typeof REFUND_RESOLUTIONS)[number];

export const refundInDoubtRow = z.object({
  key: z.string().meta({ description: 'The refund’s idempotency key (its ledger entry’s)' }),
  orderId: z.number().int(),
  paymentId: z.number().int(),
  merchantTradeNo: z.string(),
  providerTradeNo: z.string().nullable(),
  amount: z.number().int(),
  startedAt: z.string().meta({ description: 'When the call whose answer was lost was made' }),
});
export type RefundInDoubtView = z.output<typeof refundInDoubtRow>;
export const refundsInDoubtData = z.object({ refunds: z.array(refundInDoubtRow) });

/** The reconciliation page's form (and the API's body): which refund, and what the provider's back office shows. */
export const resolveRefundSchema = z.object({
  intent: z.literal('resolve-refund', { error: 'validation.invalid' }).optional(),
  key: z.string({ error: 'validation.invalid' }).min(1, { error: 'validation.invalid' }).max(200, { error: 'validation.invalid' }),
  outcome: z.enum(REFUND_RESOLUTIONS, { error: 'validation.invalid' }),
});
