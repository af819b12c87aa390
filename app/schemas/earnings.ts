import { z } from 'zod';
import { PAYOUT_STATUSES } from '~/lib/payments';
import { PASSWORD_MAX } from './field-rules';

/**
 * The guide's side of the money (issue 32): the bank account form and body, and what the earnings, payouts and
 * payout-account answers carry (the /me earnings tab and /api/v1 alike). Pure: conform runs the form schema in the
 * browser too. Messages are i18n keys (profile.payout.errors.*).
 */

/** Digits only: spaces, dashes and full-width digits (some keyboards) are what people type around them. */
const digits = (v: unknown) => (typeof v === 'string' ? v.normalize('NFKC').replace(/[\s-]/g, '') : v);

/** The same rules as app/services/payments/payout-accounts.server.ts (BANK_CODE, ACCOUNT_NUMBER), which saves it. */
export const payoutAccountSchema = z.object({
  bankCode: z.preprocess(
    digits,
    z.string({ error: 'profile.payout.errors.bankCodeRequired' })
      .min(1, { error: 'profile.payout.errors.bankCodeRequired' })
      .regex(/^[0-9]{3}$/, { error: 'profile.payout.errors.bankCode' }),
  ),
  accountNumber: z.preprocess(
    digits,
    z.string({ error: 'profile.payout.errors.accountNumberRequired' })
      .min(1, { error: 'profile.payout.errors.accountNumberRequired' })
      .regex(/^[0-9]{6,16}$/, { error: 'profile.payout.errors.accountNumber' }),
  ),
  /** The guide's current password: only the account's owner changes where the money goes. */
  password: z
    .string({ error: 'profile.payout.errors.passwordRequired' })
    .min(1, { error: 'profile.payout.errors.passwordRequired' })
    .max(PASSWORD_MAX, { error: 'validation.passwordMax' }),
});
export type PayoutAccountInput = z.infer<typeof payoutAccountSchema>;

export const maskedPayoutAccountSchema = z.object({
  bankCode: z.string().meta({ description: 'Bank code, 3 digits' }),
  accountNumberMasked: z.string().meta({ description: 'The account number with all but its last four digits as •' }),
  updatedAt: z.string(),
});
export type MaskedPayoutAccountView = z.infer<typeof maskedPayoutAccountSchema>;
export const payoutAccountData = z.object({ account: maskedPayoutAccountSchema.nullable() });

/**
 * Where an order's money stands for its guide:
 *   held          captured, the tour not completed (settled) yet
 *   payable_after settled; payable once the hold after completion (PAYOUT_HOLD_DAYS) has passed (`payableAfter`)
 *   payable       goes into the next weekly payout
 *   in_payout     in a payout sent to the bank (`payoutId`)
 *   paid          paid into the guide's bank account (`paidAt`)
 */
export const EARNING_STATES = ['held', 'payable_after', 'payable', 'in_payout', 'paid'] as const;
export type EarningState = (typeof EARNING_STATES)[number];

export const earningLineSchema = z.object({
  orderId: z.number().int(),
  /** Tour date, YYYY-MM-DD (Taiwan). */
  date: z.string(),
  timeSlot: z.string(),
  travelerName: z.string(),
  price: z.number().int().meta({ description: 'Captured minus refunded, NT$' }),
  commission: z.number().int().meta({ description: 'The platform’s commission (while held: what it will be at the order’s percent)' }),
  net: z.number().int().meta({ description: 'price − commission: the guide’s part' }),
  commissionPercent: z.number().int(),
  state: z.enum(EARNING_STATES),
  payableAfter: z.string().nullable().meta({ description: 'payable_after: when it becomes payable (settled + PAYOUT_HOLD_DAYS)' }),
  payoutId: z.number().int().nullable(),
  paidAt: z.string().nullable(),
});
export type EarningLine = z.infer<typeof earningLineSchema>;

export const earningTotalsSchema = z.object({
  held: z.number().int().meta({ description: 'Net of orders whose tour is not completed yet' }),
  payable: z.number().int().meta({ description: 'Earned, not yet in a payout (the guide’s payable balance)' }),
  payableNow: z.number().int().meta({ description: 'Of `payable`, what the next payout would pay now' }),
  inTransit: z.number().int().meta({ description: 'Payouts sent to the bank, not yet marked paid' }),
  paidOut: z.number().int(),
});
export type EarningTotals = z.infer<typeof earningTotalsSchema>;

export const payoutSummarySchema = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  amount: z.number().int(),
  status: z.enum(PAYOUT_STATUSES),
  paidAt: z.string().nullable(),
  orderCount: z.number().int(),
  bankCode: z.string(),
  accountNumberMasked: z.string(),
});
export type PayoutSummary = z.infer<typeof payoutSummarySchema>;

export const earningsData = z.object({
  holdDays: z.number().int(),
  totals: earningTotalsSchema,
  lines: z.array(earningLineSchema),
});
export type GuideEarnings = z.infer<typeof earningsData>;

export const payoutsData = z.object({ payouts: z.array(payoutSummarySchema) });

/** Everything the /me earnings tab shows. */
export interface EarningsTab {
  /** SPEC §2: total earnings (net, from the ledger), completed orders, the average per completed order, all orders. */
  summary: { total: number; completedOrders: number; averagePerOrder: number; totalOrders: number };
  earnings: GuideEarnings;
  payouts: PayoutSummary[];
  account: MaskedPayoutAccountView | null;
}
