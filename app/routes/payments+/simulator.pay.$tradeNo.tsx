import type { ReactNode } from 'react';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { SimulatorCard } from '~/components/payment-simulator';
import { notFound } from '~/http/page.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { simulatorRequest } from '~/services/payments/simulator-pages.server';

/**
 * /payments/simulator/pay/:tradeNo (issue 32, docs/decisions/039): the simulator's card page, what ECPay's payment
 * page is for a real card. Works without JavaScript; says on every view that it is test mode. After the card, the
 * traveler's browser takes the signed result back to the shop (a form to post), and the shop's server gets its own
 * callback in the background. The handling and the markup are the simulator's own (simulator-http.server.ts,
 * components/payment-simulator.tsx), as on its own port.
 */
export const handle: I18nHandle = { i18n: ['payments'] };

async function cardAnswer(request: Pick<Request, 'method' | 'text'>, tradeNo: string | undefined) {
  const answer = await simulatorRequest(request, `/pay/${tradeNo ?? ''}`);
  if (answer.kind !== 'card') throw notFound();
  return answer;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  // Only ever a look: after the card's action Remix loads the page again, and that must not submit the card twice.
  const { trade } = await cardAnswer({ method: 'GET', text: async () => '' }, params.tradeNo);
  const t = await getFixedT(request);
  return { trade, title: t('payments.simulator.title') };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { status, result } = await cardAnswer(request, params.tradeNo);
  return data({ outcome: result!.outcome, browserReturn: result!.browserReturn }, { status });
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => [...pageMeta(matches, loaded?.title), { name: 'robots', content: 'noindex' }];

const CardForm = ({ children }: { children: ReactNode }) => (
  <Form method="post" replace>
    {children}
  </Form>
);

export default function SimulatorCardPage() {
  const { trade } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t, i18n } = useTranslation();
  return <SimulatorCard trade={trade} result={result} t={t} language={i18n.language} FormElement={CardForm} />;
}
