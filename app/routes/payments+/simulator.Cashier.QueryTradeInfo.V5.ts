import type { ActionFunctionArgs } from '@remix-run/node';
import { notFound } from '~/http/page.server';
import { ECPAY_PATHS } from '~/services/payments/ecpay-protocol.server';
import { simulatorResponse } from '~/services/payments/simulator-http.server';
import { simulatorRequest } from '~/services/payments/simulator-pages.server';

/** POST /payments/simulator/Cashier/QueryTradeInfo/V5: what the simulator knows of a trade (server to server). */
export function loader() {
  throw notFound();
}

export async function action({ request }: ActionFunctionArgs) {
  const answer = await simulatorRequest(request, ECPAY_PATHS.queryTradeInfo);
  if (answer.kind === 'refused' || answer.kind === 'card') throw notFound();
  return simulatorResponse(answer);
}
