import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { pageIdParam } from '~/http/page.server';
import { acceptBrowserReturn } from '~/services/payments/callbacks.server';

/**
 * /payments/return/:orderId (issue 32): the traveler's browser back from the provider's page. A POST carries the
 * signed result (applied if it verifies, whichever of it and the server callback comes first); a GET is the
 * provider's "back to the shop" link. Either way the booking's outcome page says where the payment stands, read from
 * our own records, so nothing in this URL is believed.
 */
const outcome = (orderId: number) => redirect(`/booking-success?order=${orderId}`, 303);

export function loader({ params }: LoaderFunctionArgs) {
  return outcome(pageIdParam(params.orderId));
}

export async function action({ request, params }: ActionFunctionArgs) {
  const orderId = pageIdParam(params.orderId);
  await acceptBrowserReturn(await request.text(), request.headers);
  return outcome(orderId);
}
