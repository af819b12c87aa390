import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, SubmitButton } from '~/components/forms/form-fields';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { formatTaipeiDate, formatTourDay } from '~/lib/dates';
import { formatNtd } from '~/lib/money';
import { payoutAccountSchema, type EarningLine, type EarningsTab, type MaskedPayoutAccountView, type PayoutSummary } from '~/schemas/earnings';
import { slotWithHours } from '~/lib/time-slots';

/**
 * The /me earnings tab (issue 32): the totals, the money per order (price, commission, net, where it stands), the
 * payouts and the payout account with its form. The tables become stacked rows on narrow screens (profile.css).
 */

/** Where the bank account form posts: the tab itself, so a refused form comes back on it with what was typed. */
export const EARNINGS_TAB_URL = '/me?tab=earnings';

const STATE_PILL: Record<EarningLine['state'], string> = {
  held: 'status-pending',
  payable_after: 'status-pending',
  payable: 'status-confirmed',
  in_payout: 'status-confirmed',
  paid: 'status-completed',
};

function StateWords({ line }: { line: EarningLine }) {
  const { t, i18n } = useTranslation();
  const date = line.payableAfter ?? line.paidAt;
  return (
    <span className={`status-pill ${STATE_PILL[line.state]}`}>
      {t(`profile.earnings.states.${line.state}`, { date: date ? formatTaipeiDate(date, i18n.language) : '', id: line.payoutId ?? '' })}
    </span>
  );
}

function Totals({ tab }: { tab: EarningsTab }) {
  const { t, i18n } = useTranslation();
  const money = (v: number) => formatNtd(v, i18n.language);
  const { totals, holdDays } = tab.earnings;
  const { summary } = tab;
  const count = (v: number) => new Intl.NumberFormat(i18n.language).format(v);
  const summaryFigures = [
    { key: 'total', value: money(summary.total) },
    { key: 'completed', value: count(summary.completedOrders) },
    { key: 'average', value: money(summary.averagePerOrder) },
    { key: 'totalOrders', value: count(summary.totalOrders) },
  ];
  const figures = [
    { key: 'held', value: totals.held },
    { key: 'payable', value: totals.payable, note: t('profile.earnings.totals.payableNow', { amount: money(totals.payableNow) }) },
    { key: 'inTransit', value: totals.inTransit },
    { key: 'paidOut', value: totals.paidOut },
  ];
  return (
    <section className="card profile-panel" aria-labelledby="earnings-title">
      <h2 id="earnings-title">{t('profile.earnings.title')}</h2>
      <dl className="figure-grid" aria-label={t('profile.earnings.summary.label')}>
        {summaryFigures.map((f) => (
          <div key={f.key} className="figure">
            <dt>{t(`profile.earnings.summary.${f.key}`)}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
      <dl className="figure-grid" aria-label={t('profile.earnings.totalsLabel')}>
        {figures.map((f) => (
          <div key={f.key} className="figure">
            <dt>{t(`profile.earnings.totals.${f.key}`)}</dt>
            <dd>
              {money(f.value)}
              {f.note ? <span className="figure-note">{f.note}</span> : null}
            </dd>
          </div>
        ))}
      </dl>
      <p className="small muted">{t('profile.earnings.holdNote', { count: holdDays })}</p>
    </section>
  );
}

function OrderLines({ lines }: { lines: EarningLine[] }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const money = (v: number) => formatNtd(v, locale);
  const head = (key: string) => t(`profile.earnings.orders.${key}`);
  return (
    <section className="card profile-panel" aria-labelledby="earning-lines-title">
      <h2 id="earning-lines-title">{t('profile.earnings.orders.title')}</h2>
      {lines.length === 0 ? (
        <p className="empty">{t('profile.earnings.orders.empty')}</p>
      ) : (
        <table className="money-table">
          <thead>
            <tr>
              <th scope="col">{head('order')}</th>
              <th scope="col">{head('traveler')}</th>
              <th scope="col" className="num">{head('price')}</th>
              <th scope="col" className="num">{head('commission')}</th>
              <th scope="col" className="num">{head('net')}</th>
              <th scope="col">{head('state')}</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((l) => (
              <tr key={l.orderId}>
                <th scope="row" data-label={head('order')}>
                  <span className="money-table-order">
                    <Link to={`/orders/${l.orderId}`}>{t('profile.earnings.orders.orderId', { id: l.orderId })}</Link>
                    <span className="small muted">
                      <time dateTime={l.date}>{formatTourDay(l.date, locale)}</time> · {slotWithHours(t, l.timeSlot)}
                    </span>
                  </span>
                </th>
                <td data-label={head('traveler')}>{l.travelerName}</td>
                <td data-label={head('price')} className="num">{money(l.price)}</td>
                <td data-label={head('commission')} className="num">
                  <span>
                    {money(l.commission)}
                    <span className="small muted money-table-percent">{t('profile.earnings.orders.percent', { percent: l.commissionPercent })}</span>
                  </span>
                </td>
                <td data-label={head('net')} className="num">
                  <strong>{money(l.net)}</strong>
                </td>
                <td data-label={head('state')}>
                  <StateWords line={l} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Payouts({ payouts }: { payouts: PayoutSummary[] }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const head = (key: string) => t(`profile.earnings.payouts.${key}`);
  return (
    <section className="card profile-panel" aria-labelledby="payouts-title">
      <h2 id="payouts-title">{t('profile.earnings.payouts.title')}</h2>
      {payouts.length === 0 ? (
        <p className="empty">{t('profile.earnings.payouts.empty')}</p>
      ) : (
        <table className="money-table">
          <thead>
            <tr>
              <th scope="col">{head('id')}</th>
              <th scope="col">{head('created')}</th>
              <th scope="col" className="num">{head('orders')}</th>
              <th scope="col" className="num">{head('amount')}</th>
              <th scope="col">{head('account')}</th>
              <th scope="col">{head('status')}</th>
            </tr>
          </thead>
          <tbody>
            {payouts.map((p) => (
              <tr key={p.id}>
                <th scope="row" data-label={head('id')}>
                  {t('profile.earnings.payouts.payoutId', { id: p.id })}
                </th>
                <td data-label={head('created')}>
                  <time dateTime={p.createdAt}>{formatTaipeiDate(p.createdAt, locale)}</time>
                </td>
                <td data-label={head('orders')} className="num">{p.orderCount}</td>
                <td data-label={head('amount')} className="num">
                  <strong>{formatNtd(p.amount, locale)}</strong>
                </td>
                <td data-label={head('account')}>
                  <span className="account-number">
                    {p.bankCode} {p.accountNumberMasked}
                  </span>
                </td>
                <td data-label={head('status')}>
                  <span className={`status-pill ${p.status === 'paid' ? 'status-completed' : 'status-confirmed'}`}>
                    {p.status === 'paid' && p.paidAt
                      ? t('profile.earnings.payouts.paidOn', { date: formatTaipeiDate(p.paidAt, locale) })
                      : t(`profile.earnings.payouts.statuses.${p.status}`)}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The payout account: the masked number, and the form that changes it (bank code, number, current password). */
export function PayoutAccountCard({ account, lastResult }: { account: MaskedPayoutAccountView | null; lastResult?: SubmissionResult<string[]> | null }) {
  const { t, i18n } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useSchemaForm<{ bankCode: string; accountNumber: string; password: string }>({
    id: 'payout-account',
    schema: payoutAccountSchema,
    lastResult,
  });
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'payout-account';
  // A refused attempt empties the password for the next try, as the page without JS comes back (never echoed).
  // Conform re-renders this component for the form state it reads: read every error here, not only in the fields
  // below (a page rendered on the server and hydrated otherwise missed the client-side check's errors).
  void [form.errors, fields.bankCode.errors, fields.accountNumber.errors, fields.password.errors];
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (lastResult?.error) setRefusals((n) => n + 1);
  }, [lastResult]);
  return (
    <section className="card profile-panel payout-account-card" aria-labelledby="payout-account-title">
      <h2 id="payout-account-title">{t('profile.payout.title')}</h2>
      {account ? (
        <div className="payout-account-current">
          <p className="small muted">{t('profile.payout.current')}</p>
          <p className="account-number">{t('profile.payout.account', { bankCode: account.bankCode, number: account.accountNumberMasked })}</p>
          <p className="small muted">{t('profile.payout.updatedAt', { date: formatTaipeiDate(account.updatedAt, i18n.language) })}</p>
        </div>
      ) : (
        <p className="status-warn">{t('profile.payout.none')}</p>
      )}
      <Form method="post" action={EARNINGS_TAB_URL} className="form payout-account-form" {...getFormProps(form)}>
        <h3>{t(account ? 'profile.payout.change' : 'profile.payout.set')}</h3>
        <FormErrors form={form} />
        <div className="payout-account-fields">
          <Field field={fields.bankCode} label={t('profile.payout.bankCode')} hint={t('profile.payout.bankCodeHint')} inputMode="numeric" autoComplete="off" className="payout-bank-code" />
          <Field field={fields.accountNumber} label={t('profile.payout.accountNumber')} hint={t('profile.payout.accountNumberHint')} inputMode="numeric" autoComplete="off" />
        </div>
        <Field key={`password-${refusals}`} field={fields.password} type="password" label={t('profile.payout.password')} hint={t('profile.payout.passwordHint')} autoComplete="current-password" alert />
        <div className="form-actions">
          <SubmitButton name="intent" value="payout-account" busy={saving} label={t('profile.payout.save')} busyLabel={t('profile.payout.saving')} />
        </div>
      </Form>
    </section>
  );
}

export function EarningsPanel({ tab, accountResult }: { tab: EarningsTab; accountResult?: SubmissionResult<string[]> | null }) {
  return (
    <div className="profile-panel-stack earnings-panel">
      <Totals tab={tab} />
      <OrderLines lines={tab.earnings.lines} />
      <Payouts payouts={tab.payouts} />
      {/* A saved account is a new form: nothing typed (the password least of all) stays in it. */}
      <PayoutAccountCard key={tab.account?.updatedAt ?? 'none'} account={tab.account} lastResult={accountResult} />
    </div>
  );
}
