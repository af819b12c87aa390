import type { ElementType, ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { formatNtd } from '~/lib/money';

/**
 * The payment simulator's pages (issue 32, docs/decisions/039), one markup wherever the simulator runs: inside the
 * app (app/routes/payments+/simulator.*, in the app's layout) and on its own port (server/payments-simulator.tsx,
 * rendered to a page of its own). Plain props and a `t`, no loader data or context: both sides render them.
 * They work without JavaScript and say on every view that it is test mode.
 */

export interface SimulatorCardTrade {
  amount: number;
  itemName: string;
  status: string;
  /** Where "cancel and go back" leads (the merchant's ClientBackURL). */
  backUrl: string | null;
}

export interface SimulatorCardResult {
  outcome: 'approved' | 'declined' | 'not_a_test_card' | 'not_open';
  /** The signed result the traveler's browser carries back to the shop (a form to post). */
  browserReturn: { url: string; fields: Record<string, string> } | null;
}

type Translate = TFunction | ((key: string, options?: Record<string, unknown>) => string);

export function SimulatorCard({
  trade,
  result,
  t,
  language,
  FormElement = 'form',
}: {
  trade: SimulatorCardTrade;
  result: SimulatorCardResult | null | undefined;
  t: Translate;
  language: string;
  /** The card form's element: Remix's Form inside the app (no full reload with JS), a plain form elsewhere. */
  FormElement?: ElementType<{ method: 'post'; children: ReactNode }>;
}) {
  const tr = t as (key: string, options?: Record<string, unknown>) => string;
  const amount = formatNtd(trade.amount, language);
  const open = trade.status === 'awaiting_card' && (!result || result.outcome === 'not_a_test_card');
  return (
    <section className="card simulator-card" aria-labelledby="simulator-title">
      <p role="note" className="notice">
        <strong>{tr('payments.simulator.testMode')}</strong>
      </p>
      <h1 id="simulator-title">{tr('payments.simulator.title')}</h1>
      <dl className="facts">
        <div>
          <dt>{tr('payments.simulator.item')}</dt>
          <dd>{trade.itemName}</dd>
        </div>
        <div>
          <dt>{tr('payments.simulator.amount')}</dt>
          <dd>{amount}</dd>
        </div>
      </dl>
      {open ? (
        <FormElement method="post">
          <div className="field">
            <label htmlFor="cardNumber">{tr('payments.simulator.cardNumber')}</label>
            <input id="cardNumber" name="cardNumber" type="text" inputMode="numeric" autoComplete="off" required maxLength={40} aria-describedby="card-hint" />
            <p id="card-hint" className="muted small">
              {tr('payments.simulator.cardHint')}
            </p>
          </div>
          {result?.outcome === 'not_a_test_card' ? <p role="alert">{tr('payments.simulator.notATestCard')}</p> : null}
          <div className="form-actions">
            <button type="submit" className="button">
              {tr('payments.simulator.pay', { amount })}
            </button>
            {trade.backUrl ? (
              <a className="button button-secondary" href={trade.backUrl}>
                {tr('payments.simulator.cancel')}
              </a>
            ) : null}
          </div>
        </FormElement>
      ) : (
        <>
          <p role="status">
            {result?.outcome === 'approved'
              ? tr('payments.simulator.approved', { amount })
              : result?.outcome === 'declined'
                ? tr('payments.simulator.declined')
                : tr('payments.simulator.alreadyTried')}
          </p>
          {result?.browserReturn ? (
            // A plain form to the shop's own address: the traveler's browser carries the signed result back.
            <form method="post" action={result.browserReturn.url}>
              {Object.entries(result.browserReturn.fields).map(([name, value]) => (
                <input key={name} type="hidden" name={name} value={value} />
              ))}
              <button type="submit" className="button">
                {tr('payments.simulator.continue')}
              </button>
            </form>
          ) : trade.backUrl ? (
            <a className="button" href={trade.backUrl}>
              {tr('payments.simulator.continue')}
            </a>
          ) : null}
        </>
      )}
    </section>
  );
}

/** The checkout the simulator would not take (a forged or incomplete form), with the reason ECPay would give. */
export function SimulatorRefused({ reason, t }: { reason: string; t: Translate }) {
  const tr = t as (key: string, options?: Record<string, unknown>) => string;
  return (
    <section className="card" aria-labelledby="simulator-title">
      <p role="note" className="muted">
        {tr('payments.simulator.testMode')}
      </p>
      <h1 id="simulator-title">{tr('payments.simulator.title')}</h1>
      <p role="alert">{tr('payments.simulator.refused', { reason })}</p>
    </section>
  );
}
