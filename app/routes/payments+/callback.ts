import type { ActionFunctionArgs } from '@remix-run/node';
import { notFound } from '~/http/page.server';
import { acceptProviderCallback } from '~/services/payments/callbacks.server';

/**
 * POST /payments/callback (issue 32): the payment provider's server-to-server result (ECPay's ReturnURL). The body is
 * read raw and believed only once verified; the answer is the provider's protocol (`1|OK`, or non-2xx to be sent again).
 */
export function loader() {
  throw notFound();
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') throw notFound();
  const answer = await acceptProviderCallback(await request.text(), request.headers);
  return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}
