import type { Database } from '~db/client';
import { ECPAY_PATHS, formFields } from './ecpay-protocol.server';
import {
  acceptCheckout,
  deliverServerCallback,
  findTrade,
  handleSimulatorApi,
  payWithCard,
  SIMULATOR_PATH,
  type CardOutcome,
  type SimulatorTradeView,
} from './simulator.server';

/**
 * The payment simulator's HTTP handling (issue 32), one implementation for both places it is served: the app's
 * routes under SIMULATOR_PATH (app/routes/payments+/simulator.*) and its own port (`npm run payments:simulator`,
 * server/payments-simulator.tsx). A request in (method, the path below SIMULATOR_PATH, its body), an answer out:
 * a redirect, a server-to-server text, or a page to render (each side renders the same components,
 * app/components/payment-simulator.tsx).
 */

export interface SimulatorRequest {
  method: string;
  /** The path below SIMULATOR_PATH, e.g. `/Cashier/AioCheckOut/V5` or `/pay/2611290841320123`. */
  path: string;
  /** The raw body (the caller caps its size). */
  body: () => Promise<string>;
}

export interface SimulatorCardResult {
  outcome: CardOutcome;
  browserReturn: { url: string; fields: Record<string, string> } | null;
}

export type SimulatorAnswer =
  | { kind: 'not_found' }
  | { kind: 'redirect'; location: string }
  /** Server to server (DoAction, QueryTradeInfo): ECPay's form-encoded answer. */
  | { kind: 'text'; status: number; body: string }
  /** The checkout form was refused: a page saying why. */
  | { kind: 'refused'; status: 400; reason: string }
  /** The card page: the trade, and the card's result after a submission. */
  | { kind: 'card'; status: 200 | 400; trade: SimulatorTradeView; result: SimulatorCardResult | null };

export interface SimulatorOptions {
  /** The checkout's and the card's time (the order rules' clock inside the app, which end-to-end tests move). */
  now: () => Date;
  /** Each server callback in flight (a process that stops waits for them). */
  track?: (delivery: Promise<unknown>) => void;
}

const CARD_PATH = /^\/pay\/([0-9]{16,20})$/;

const simulatorCardPath = (tradeNo: string) => `${SIMULATOR_PATH}/pay/${tradeNo}`;

export async function handleSimulatorRequest(db: Database, request: SimulatorRequest, options: SimulatorOptions): Promise<SimulatorAnswer> {
  const post = request.method === 'POST';
  if (request.path === ECPAY_PATHS.checkout) {
    if (!post) return { kind: 'not_found' };
    const result = await acceptCheckout(db, formFields(await request.body()), options.now());
    return result.ok ? { kind: 'redirect', location: simulatorCardPath(result.trade.tradeNo) } : { kind: 'refused', status: 400, reason: result.message };
  }
  if (request.path === ECPAY_PATHS.doAction || request.path === ECPAY_PATHS.queryTradeInfo) {
    if (!post) return { kind: 'not_found' };
    // The real time, not the order rules' clock (which the end-to-end server moves to 05:00): a query's TimeStamp is
    // the caller's real time, and a moved clock would refuse every query as stale.
    const answer = await handleSimulatorApi(db, request.path, await request.body(), new Date());
    return { kind: 'text', ...answer };
  }
  const tradeNo = CARD_PATH.exec(request.path)?.[1];
  if (!tradeNo || !['GET', 'HEAD', 'POST'].includes(request.method)) return { kind: 'not_found' };
  const trade = await findTrade(db, tradeNo);
  if (!trade) return { kind: 'not_found' };
  if (!post) return { kind: 'card', status: 200, trade, result: null };
  const card = String(formFields(await request.body()).cardNumber ?? '').slice(0, 40);
  const result = await submitCard(db, tradeNo, card, options);
  if (result.outcome === 'not_a_test_card') return { kind: 'card', status: 400, trade, result: { outcome: result.outcome, browserReturn: null } };
  return {
    kind: 'card',
    status: 200,
    trade: result.trade ?? trade,
    result: { outcome: result.outcome, browserReturn: result.browserReturn && { url: result.browserReturn.url, fields: result.browserReturn.fields } },
  };
}

/**
 * The card page's form: the card's outcome, and the browser's way back (the signed result, posted by the traveler's
 * browser to the shop). The server callback leaves in the background, after this answer, as ECPay's would: late,
 * repeated or out of order when a test switch says so, retried until the merchant answers `1|OK` (deliverServerCallback).
 */
async function submitCard(db: Database, tradeNo: string, cardNumber: string, options: SimulatorOptions) {
  const result = await payWithCard(db, tradeNo, cardNumber, options.now());
  const servers = result.deliveries.filter((d) => d.target === 'server');
  if (servers.length) {
    const sending = (async () => {
      for (const delivery of servers) {
        // A merchant that never answers 1|OK is the merchant's problem; the reconciliation job finds the payment.
        await deliverServerCallback(delivery).catch(() => undefined);
      }
    })();
    options.track?.(sending);
  }
  return { outcome: result.outcome, trade: result.trade, browserReturn: result.deliveries.find((d) => d.target === 'browser') ?? null };
}

/** The headers of every simulator answer: nothing of a payment is cached. */
export const SIMULATOR_HEADERS = { 'cache-control': 'no-store' } as const;

/** An answer that is not a page, as a response (the route throws or returns it; the own-port server sends it). */
export function simulatorResponse(answer: Exclude<SimulatorAnswer, { kind: 'refused' | 'card' }>): Response {
  switch (answer.kind) {
    case 'redirect':
      return new Response(null, { status: 303, headers: { ...SIMULATOR_HEADERS, location: answer.location } });
    case 'text':
      return new Response(answer.body, { status: answer.status, headers: { ...SIMULATOR_HEADERS, 'content-type': 'text/html; charset=utf-8' } });
    default:
      return new Response('Not Found', { status: 404, headers: { ...SIMULATOR_HEADERS, 'content-type': 'text/plain; charset=utf-8' } });
  }
}
