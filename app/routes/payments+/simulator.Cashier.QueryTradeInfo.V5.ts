import type { ActionFunctionArgs } from '@remix-run/node';
import { notFound } from '~/http/page.server';
import { simulatorApi, simulatorEnabled } from '~/services/payments/simulator-pages.server';

/** POST /payments/simulator/Cashier/QueryTradeInfo/V5: what the simulator knows of a trade (server to server). */
export function loader() {
  throw notFound();
}

export async function action({ request }: ActionFunctionArgs) {
  if (!simulatorEnabled()) throw notFound();
  const answer = await simulatorApi('/Cashier/QueryTradeInfo/V5', await request.text());
  return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
}
