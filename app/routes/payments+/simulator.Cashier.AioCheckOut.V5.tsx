import { data, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { SimulatorRefused } from '~/components/payment-simulator';
import { notFound } from '~/http/page.server';
import type { I18nHandle } from '~/i18n/bundles';
import { pageMeta } from '~/lib/meta';
import { ECPAY_PATHS } from '~/services/payments/ecpay-protocol.server';
import { simulatorResponse } from '~/services/payments/simulator-http.server';
import { simulatorRequest } from '~/services/payments/simulator-pages.server';

/**
 * POST /payments/simulator/Cashier/AioCheckOut/V5 (issue 32, docs/decisions/039): where the checkout form is posted
 * when the simulator is the provider, at the path ECPay's protocol names. A valid checkout goes on to the card page.
 * The handling is the simulator's own (simulator-http.server.ts), as on its own port.
 */
export const handle: I18nHandle = { i18n: ['payments'] };

export function loader() {
  throw notFound();
}

export async function action({ request }: ActionFunctionArgs) {
  const answer = await simulatorRequest(request, ECPAY_PATHS.checkout);
  if (answer.kind === 'refused') return data({ reason: answer.reason }, { status: answer.status });
  if (answer.kind === 'card') throw notFound();
  throw simulatorResponse(answer);
}

export const meta: MetaFunction = ({ matches }) => [...pageMeta(matches, undefined), { name: 'robots', content: 'noindex' }];

export default function SimulatorCheckoutRefused() {
  const refused = useActionData<typeof action>();
  const { t } = useTranslation();
  return <SimulatorRefused reason={refused?.reason ?? ''} t={t} />;
}
