import { eq } from 'drizzle-orm';
import type { Database } from '~db/client';
import { guidePayoutAccounts } from '~db/schema';

/**
 * Where a guide's payouts go (issue 32): a Taiwanese bank code (3 digits) and account number (6–16 digits). Once
 * saved, only the masked number is ever shown; changing it needs the guide's password (checked by the caller, the
 * wiring step), and a payout already sent keeps the account it was sent to (copied onto the payout).
 */
export const BANK_CODE = /^[0-9]{3}$/;
export const ACCOUNT_NUMBER = /^[0-9]{6,16}$/;

/** Digits only: people type account numbers with spaces and dashes, and full-width digits on some keyboards. */
export function normaliseAccountDigits(text: string): string {
  return text.normalize('NFKC').replace(/[\s-]/g, '');
}

/** The last four digits, the rest as •: enough for a guide to recognise the account, not to use it. */
export function maskAccountNumber(accountNumber: string): string {
  return `${'•'.repeat(Math.max(0, accountNumber.length - 4))}${accountNumber.slice(-4)}`;
}

export interface MaskedPayoutAccount {
  bankCode: string;
  accountNumberMasked: string;
  updatedAt: Date;
}

export async function payoutAccountOf(db: Database, guideId: number): Promise<MaskedPayoutAccount | null> {
  const [row] = await db.select().from(guidePayoutAccounts).where(eq(guidePayoutAccounts.guideId, guideId));
  return row ? { bankCode: row.bankCode, accountNumberMasked: maskAccountNumber(row.accountNumber), updatedAt: row.updatedAt } : null;
}

/** Saves (or replaces) the guide's payout account; throws RangeError for a malformed code or number. */
export async function savePayoutAccount(db: Database, input: { guideId: number; bankCode: string; accountNumber: string; now: Date }): Promise<MaskedPayoutAccount> {
  const bankCode = normaliseAccountDigits(input.bankCode);
  const accountNumber = normaliseAccountDigits(input.accountNumber);
  if (!BANK_CODE.test(bankCode)) throw new RangeError('bank code must be 3 digits');
  if (!ACCOUNT_NUMBER.test(accountNumber)) throw new RangeError('account number must be 6 to 16 digits');
  const [row] = await db
    .insert(guidePayoutAccounts)
    .values({ guideId: input.guideId, bankCode, accountNumber, updatedAt: input.now })
    .onConflictDoUpdate({ target: guidePayoutAccounts.guideId, set: { bankCode, accountNumber, updatedAt: input.now } })
    .returning();
  return { bankCode: row!.bankCode, accountNumberMasked: maskAccountNumber(row!.accountNumber), updatedAt: row!.updatedAt };
}
