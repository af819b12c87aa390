import { getDb } from '~db/client';
import { getConfig } from '~/env.server';
import { now } from '../clock.server';
import { paymentProviderName } from './configured-provider.server';
import {
  acceptCheckout,
  deliverServerCallback,
  findTrade,
  handleSimulatorApi,
  payWithCard,
  type CallbackDelivery,
  type CardOutcome,
  type SimulatorTradeView,
} from './simulator.server';

/**
 * What the simulator's pages and paths call (app/routes/payments+/simulator.*): one service call each. The simulator
 * answers only where it is the configured provider, so a deployment that takes real payments has no simulator.
 */
export function simulatorEnabled(): boolean {
  return paymentProviderName(getConfig()) === 'simulator';
}

export function startSimulatedCheckout(fields: Record<string, string>) {
  return acceptCheckout(getDb(), fields, now());
}

export function simulatedTrade(tradeNo: string): Promise<SimulatorTradeView | null> {
  return findTrade(getDb(), tradeNo);
}

/**
 * The card page's form: the card's outcome, and the browser's way back (the signed result, posted by the traveler's
 * browser to the shop). The server callback leaves in the background, after this answer, as ECPay's would: late,
 * repeated or out of order when a test switch says so.
 */
export async function submitSimulatedCard(
  tradeNo: string,
  cardNumber: string,
): Promise<{ outcome: CardOutcome; trade: SimulatorTradeView | null; browserReturn: CallbackDelivery | null }> {
  const result = await payWithCard(getDb(), tradeNo, cardNumber, now());
  const servers = result.deliveries.filter((d) => d.target === 'server');
  if (servers.length) {
    void (async () => {
      for (const delivery of servers) {
        // A merchant that never answers 1|OK is the merchant's problem; the reconciliation job finds the payment.
        await deliverServerCallback(delivery).catch(() => undefined);
      }
    })();
  }
  return { outcome: result.outcome, trade: result.trade, browserReturn: result.deliveries.find((d) => d.target === 'browser') ?? null };
}

export function simulatorApi(path: string, rawBody: string) {
  // The real time, not the order rules' clock (which the end-to-end server moves to 05:00): a query's TimeStamp is
  // the caller's real time, and a moved clock would refuse every query as stale.
  return handleSimulatorApi(getDb(), path, rawBody, new Date());
}
