import { data, redirect, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { notFound, readForm } from '~/http/page.server';
import type { I18nHandle } from '~/i18n/bundles';
import { pageMeta } from '~/lib/meta';
import { simulatorEnabled, startSimulatedCheckout } from '~/services/payments/simulator-pages.server';

/**
 * POST /payments/simulator/Cashier/AioCheckOut/V5 (issue 32, docs/decisions/039): where the checkout form is posted
 * when the simulator is the provider, at the path ECPay's protocol names. A valid checkout goes on to the card page.
 */
export const handle: I18nHandle = { i18n: ['payments'] };

export function loader() {
  throw notFound();
}

export async function action({ request }: ActionFunctionArgs) {
  if (!simulatorEnabled()) throw notFound();
  const form = await readForm(request);
  const fields = Object.fromEntries([...form.entries()].filter((e): e is [string, string] => typeof e[1] === 'string'));
  const result = await startSimulatedCheckout(fields);
  if (result.ok) return redirect(`/payments/simulator/pay/${result.trade.tradeNo}`, 303);
  return data({ reason: result.message }, { status: 400 });
}

export const meta: MetaFunction = ({ matches }) => [...pageMeta(matches, undefined), { name: 'robots', content: 'noindex' }];

export default function SimulatorCheckoutRefused() {
  const refused = useActionData<typeof action>();
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="simulator-title">
      <p role="note" className="muted">{t('payments.simulator.testMode')}</p>
      <h1 id="simulator-title">{t('payments.simulator.title')}</h1>
      <p role="alert">{t('payments.simulator.refused', { reason: refused?.reason ?? '' })}</p>
    </section>
  );
}
