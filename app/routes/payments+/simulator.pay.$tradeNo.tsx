import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { notFound, readForm } from '~/http/page.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { simulatedTrade, simulatorEnabled, submitSimulatedCard } from '~/services/payments/simulator-pages.server';

/**
 * /payments/simulator/pay/:tradeNo (issue 32, docs/decisions/039): the simulator's card page, what ECPay's payment
 * page is for a real card. Works without JavaScript; says on every view that it is test mode. After the card, the
 * traveler's browser takes the signed result back to the shop (a form to post), and the shop's server gets its own
 * callback in the background.
 */
export const handle: I18nHandle = { i18n: ['payments'] };

async function tradeOr404(tradeNo: string | undefined) {
  if (!simulatorEnabled() || !tradeNo || !/^[0-9]{16,20}$/.test(tradeNo)) throw notFound();
  const trade = await simulatedTrade(tradeNo);
  if (!trade) throw notFound();
  return trade;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const trade = await tradeOr404(params.tradeNo);
  const t = await getFixedT(request);
  return { trade, title: t('payments.simulator.title') };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const trade = await tradeOr404(params.tradeNo);
  const form = await readForm(request);
  const card = String(form.get('cardNumber') ?? '').slice(0, 40);
  const result = await submitSimulatedCard(trade.tradeNo, card);
  if (result.outcome === 'not_a_test_card') return data({ outcome: result.outcome, browserReturn: null }, { status: 400 });
  return data({ outcome: result.outcome, browserReturn: result.browserReturn && { url: result.browserReturn.url, fields: result.browserReturn.fields } });
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => [...pageMeta(matches, loaded?.title), { name: 'robots', content: 'noindex' }];

export default function SimulatorCardPage() {
  const { trade } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t, i18n } = useTranslation();
  const amount = formatNtd(trade.amount, i18n.language);
  const open = trade.status === 'awaiting_card' && (!result || result.outcome === 'not_a_test_card');
  return (
    <section className="card simulator-card" aria-labelledby="simulator-title">
      <p role="note" className="notice">
        <strong>{t('payments.simulator.testMode')}</strong>
      </p>
      <h1 id="simulator-title">{t('payments.simulator.title')}</h1>
      <dl>
        <dt>{t('payments.simulator.item')}</dt>
        <dd>{trade.itemName}</dd>
        <dt>{t('payments.simulator.amount')}</dt>
        <dd>{amount}</dd>
      </dl>
      {open ? (
        <Form method="post" replace>
          <label htmlFor="cardNumber">{t('payments.simulator.cardNumber')}</label>
          <input id="cardNumber" name="cardNumber" inputMode="numeric" autoComplete="off" required maxLength={40} aria-describedby="card-hint" />
          <p id="card-hint" className="muted small">
            {t('payments.simulator.cardHint')}
          </p>
          {result?.outcome === 'not_a_test_card' ? <p role="alert">{t('payments.simulator.notATestCard')}</p> : null}
          <div className="form-actions">
            <button type="submit">{t('payments.simulator.pay', { amount })}</button>
            {trade.backUrl ? (
              <a className="button button-secondary" href={trade.backUrl}>
                {t('payments.simulator.cancel')}
              </a>
            ) : null}
          </div>
        </Form>
      ) : (
        <>
          <p role="status">
            {result?.outcome === 'approved'
              ? t('payments.simulator.approved', { amount })
              : result?.outcome === 'declined'
                ? t('payments.simulator.declined')
                : t('payments.simulator.alreadyTried')}
          </p>
          {result?.browserReturn ? (
            // A plain form to the shop's own address: the traveler's browser carries the signed result back.
            <form method="post" action={result.browserReturn.url}>
              {Object.entries(result.browserReturn.fields).map(([name, value]) => (
                <input key={name} type="hidden" name={name} value={value} />
              ))}
              <button type="submit">{t('payments.simulator.continue')}</button>
            </form>
          ) : trade.backUrl ? (
            <a className="button" href={trade.backUrl}>
              {t('payments.simulator.continue')}
            </a>
          ) : null}
        </>
      )}
    </section>
  );
}
