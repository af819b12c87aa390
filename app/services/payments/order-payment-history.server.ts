import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { ledgerEntries, ledgerPostings, paymentEvents, payments } from '~db/schema';
import type { PaymentHistoryItem, PaymentHistoryKind } from '~/schemas/payments';

/**
 * What happened to an order's money, in order (issue 32): the payment timeline of the order page and the receipt.
 * Read from the payments (authorised and captured times, expiry), the provider's stored events (a declined card)
 * and the ledger (each void and refund with its amount). Read only.
 */
export type { PaymentHistoryItem, PaymentHistoryKind };

export async function orderPaymentHistory(orderId: number, db: Database = getDb()): Promise<PaymentHistoryItem[]> {
  const attempts = await db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(asc(payments.id));
  if (attempts.length === 0) return [];
  const items: PaymentHistoryItem[] = [];
  const declined = await db
    .select({ paymentId: paymentEvents.paymentId, at: paymentEvents.receivedAt })
    .from(paymentEvents)
    .where(and(inArray(paymentEvents.paymentId, attempts.map((p) => p.id)), eq(paymentEvents.kind, 'failed'), eq(paymentEvents.outcome, 'applied')));
  const amountOf = new Map(attempts.map((p) => [p.id, p.amount]));
  for (const d of declined) items.push({ kind: 'declined', at: d.at.toISOString(), amount: amountOf.get(d.paymentId!) ?? 0 });

  // Each void and refund is one ledger entry: its amount is what flowed into the accounts it credits.
  const moves = await db
    .select({ id: ledgerEntries.id, kind: ledgerEntries.kind, at: ledgerEntries.createdAt, amount: sql<string>`sum(greatest(${ledgerPostings.amount}, 0))` })
    .from(ledgerEntries)
    .innerJoin(ledgerPostings, eq(ledgerPostings.entryId, ledgerEntries.id))
    .where(and(eq(ledgerEntries.orderId, orderId), inArray(ledgerEntries.kind, ['void', 'refund'])))
    .groupBy(ledgerEntries.id)
    .orderBy(asc(ledgerEntries.id));

  for (const p of attempts) {
    if (p.authorisedAt) items.push({ kind: 'authorised', at: p.authorisedAt.toISOString(), amount: p.amount });
    if (p.capturedAt) items.push({ kind: 'captured', at: p.capturedAt.toISOString(), amount: p.capturedAmount });
    if (p.status === 'expired') items.push({ kind: 'expired', at: p.updatedAt.toISOString(), amount: p.amount });
  }
  // The ledger writes its own time; the payment's last change carries the application's clock (the same as the
  // order's timeline), so the newest movement takes that one.
  const live = attempts.find((p) => p.status === 'voided' || p.status === 'refunded' || p.status === 'partly_refunded');
  moves.forEach((m, i) => {
    const at = i === moves.length - 1 && live ? live.updatedAt : m.at;
    items.push({ kind: m.kind === 'void' ? 'voided' : 'refunded', at: at.toISOString(), amount: Number(m.amount) });
  });
  return items.sort((a, b) => a.at.localeCompare(b.at));
}
