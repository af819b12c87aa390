import { getDb, type Database } from '~db/client';
import { now as clockNow } from '../platform/clock.server';
import { countEvent } from '../platform/counters.server';
import { logEvent } from '../platform/log.server';
import { acceptPaymentEvent } from './payment-jobs.server';
import { paymentProvider } from './configured-provider.server';

/**
 * What the payment provider sends us (issue 32, docs/decisions/039–040), both verified from the raw body before
 * anything is believed (the CheckMacValue, compared in constant time by the adapter):
 * - the server-to-server callback (ECPay's ReturnURL): answered `1|OK` once stored; an unknown trade (the booking
 *   not committed yet, or not ours) and a forged or malformed post answer non-2xx, so a genuine one is sent again;
 * - the traveler's browser coming back from the provider's page (OrderResultURL) with the same signed result: applied
 *   the same way (whichever arrives first wins, the other is a duplicate), then the page goes on to the booking's
 *   outcome. A browser return that does not verify changes nothing.
 */
export async function acceptProviderCallback(rawBody: string, headers: Headers, db: Database = getDb()): Promise<{ status: number; body: string }> {
  const verdict = paymentProvider().verifyCallback(rawBody, headers);
  if (!verdict.ok) {
    countEvent('payment_events_total', { outcome: verdict.reason });
    logEvent('warn', 'payments: a callback was refused', { reason: verdict.reason });
    return { status: 400, body: `0|${verdict.reason}` };
  }
  const result = await acceptPaymentEvent(db, verdict.event, clockNow());
  if (result.outcome === 'unknown_payment') return { status: 404, body: '0|unknown trade' };
  return { status: 200, body: verdict.reply };
}

/** The traveler's browser back from the provider: applies the signed result if it verifies; says which order it was. */
export async function acceptBrowserReturn(rawBody: string, headers: Headers, db: Database = getDb()): Promise<number | null> {
  const verdict = paymentProvider().verifyCallback(rawBody, headers);
  if (!verdict.ok) return null;
  const result = await acceptPaymentEvent(db, verdict.event, clockNow());
  return result.outcome === 'unknown_payment' ? null : result.payment.orderId;
}
