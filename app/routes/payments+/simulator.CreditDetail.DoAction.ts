import type { ActionFunctionArgs } from '@remix-run/node';
import { notFound } from '~/http/page.server';
import { ECPAY_PATHS } from '~/services/payments/ecpay-protocol.server';
import { simulatorResponse } from '~/services/payments/simulator-http.server';
import { simulatorRequest } from '~/services/payments/simulator-pages.server';

/** POST /payments/simulator/CreditDetail/DoAction: the simulator's capture, refund, cancel and give-up (server to server). */
export function loader() {
  throw notFound();
}

export async function action({ request }: ActionFunctionArgs) {
  const answer = await simulatorRequest(request, ECPAY_PATHS.doAction);
  if (answer.kind === 'refused' || answer.kind === 'card') throw notFound();
  return simulatorResponse(answer);
}
