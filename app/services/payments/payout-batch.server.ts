import { eq, inArray } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { guidePayoutAccounts, users } from '~db/schema';
import { getConfig } from '~/env.server';
import { isLocale } from '~/i18n/config';
import { getFixedT } from '~/i18n/i18n.server';
import { formatNtd } from '~/lib/money';
import { wordNotice } from '../messaging/notice-wording.server';
import { logError } from '../platform/log.server';
import { writeNotification } from '../messaging/notifications.server';
import { accountBalances, startPayout } from './ledger.server';

/**
 * The weekly payout batch (issue 32, docs/decisions/038): every guide with a payable balance and a bank account
 * gets one payout of what is payable now (orders settled more than PAYOUT_HOLD_DAYS ago, less deductions), each in
 * its own transaction (a savepoint inside the job's), so one guide's refusal does not hold up the others.
 * `startPayout` locks the guide's payable account first: two instances running the batch at once make one payout
 * per guide (tests/integration/payout-batch.test.ts). Guides without a bank account are skipped and counted; the
 * guide is told by a notification and a mail in their language, in the payout's transaction.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export const PAYOUT_BATCH_EVERY_MS = 7 * DAY_MS;

export interface PayoutBatchResult {
  /** Payouts started now. */
  payouts: number;
  /** Their total, NT$. */
  amount: number;
  /** Guides with a payable balance but no bank account yet. */
  noAccount: number;
  /** Guides with a payable balance of which nothing is payable yet (all within the hold). */
  nothingDue: number;
  /** Guides whose payout failed (logged; tried again at the next run). */
  failed: number;
}

export async function runPayoutBatch(db: Database = getDb(), now: Date = new Date()): Promise<PayoutBatchResult> {
  const settledBefore = new Date(now.getTime() - getConfig().PAYOUT_HOLD_DAYS * DAY_MS);
  const owed = (await accountBalances(db)).filter((b) => b.kind === 'guide_payable' && b.balance > 0 && b.ownerId !== null).map((b) => b.ownerId!);
  const result: PayoutBatchResult = { payouts: 0, amount: 0, noAccount: 0, nothingDue: 0, failed: 0 };
  if (owed.length === 0) return result;
  const withAccount = new Set(
    (await db.select({ guideId: guidePayoutAccounts.guideId }).from(guidePayoutAccounts).where(inArray(guidePayoutAccounts.guideId, owed))).map((r) => r.guideId),
  );
  for (const guideId of owed) {
    if (!withAccount.has(guideId)) {
      result.noAccount++;
      continue;
    }
    let started: { payoutId: number; amount: number } | null;
    try {
      started = await db.transaction(async (tx) => {
        const payout = await startPayout(tx, { guideId, settledBefore });
        if (payout) await recordPayoutNotice(tx, guideId, payout);
        return payout;
      });
    } catch (error) {
      // This guide's payout is rolled back (its savepoint) and tried again next week; the others go on.
      logError('payout batch: a guide’s payout failed', error, { fields: { guideId } });
      result.failed++;
      continue;
    }
    if (started) {
      result.payouts++;
      result.amount += started.amount;
    } else result.nothingDue++;
  }
  return result;
}

/** The guide's notice of a payout sent (words: app/locales/<lang>/mail.json `payout`), with its mail, through the outbox. */
async function recordPayoutNotice(db: Database, guideId: number, payout: { payoutId: number; amount: number }): Promise<void> {
  const [guide] = await db.select({ id: users.id, name: users.name, email: users.email, locale: users.locale }).from(users).where(eq(users.id, guideId));
  if (!guide) return;
  const locale = isLocale(guide.locale) ? guide.locale : 'zh-TW';
  const t = await getFixedT(locale);
  const facts = { payoutId: payout.payoutId, amount: payout.amount };
  const { title, body } = wordNotice(t, locale, 'payout.started', facts);
  const path = '/me?tab=earnings';
  const link = new URL(path, getConfig().PUBLIC_URL).toString();
  const text = [t('mail.payout.greeting', { name: guide.name }), '', body, '', link, '', t('mail.payout.signature')].join('\n');
  await writeNotification(
    { userId: guide.id, type: 'payout.started', title, body, params: facts, link: path, mail: { to: guide.email, subject: t('mail.payout.subject', { amount: formatNtd(payout.amount, locale) }), text } },
    db,
  );
}
