import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { requireUser } from '~/http/session.server';
import { orErrorPage, pageIdParam } from '~/http/page.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime, formatTourDayLong } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { orderReceipt } from '~/services/payments/receipt.server';
import receiptStyles from '~/styles/receipt.css?url';
import { slotWithHours } from '~/lib/time-slots';

/**
 * /orders/:id/receipt (issue 32): the receipt of a paid order for its traveler and admins (404 for anyone else).
 * The page is the receipt: printed, only the receipt shows (app/styles/receipt.css); with JS a Print button.
 */
export const handle: I18nHandle = { i18n: ['payments', 'orders'] };

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: receiptStyles }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const id = pageIdParam(params.id);
  const receipt = await orErrorPage(() => orderReceipt(user, id), { existencePrivate: true });
  const t = await getFixedT(request);
  return { receipt, title: t('payments.receipt.title', { id }) };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [...pageMeta(matches, data?.title), { name: 'robots', content: 'noindex' }];

export default function ReceiptPage() {
  const { receipt } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const ntd = (n: number) => formatNtd(n, locale);
  const row = (label: string, value: React.ReactNode, testId?: string) => (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
  return (
    <article className="card receipt" aria-labelledby="receipt-title" data-testid="receipt">
      <header className="receipt-head">
        <p className="receipt-platform">{t('payments.receipt.platformName')}</p>
        <h1 id="receipt-title">{t('payments.receipt.title', { id: receipt.orderId })}</h1>
      </header>
      <dl className="receipt-facts">
        {row(t('payments.receipt.issuedBy'), t('payments.receipt.platformName'))}
        {row(t('payments.receipt.order'), `#${receipt.orderId}`)}
        {row(t('payments.receipt.traveler'), receipt.travelerName)}
        {row(t('payments.receipt.tour'), t('payments.receipt.tourWith', { guide: receipt.guideName }))}
        {row(t('payments.receipt.guide'), receipt.guideName)}
        {row(t('payments.receipt.when'), `${formatTourDayLong(receipt.date, locale)} ${slotWithHours(t, receipt.timeSlot)}`)}
        {row(t('payments.receipt.people'), t('payments.receipt.peopleCount', { count: receipt.numberOfPeople }))}
        {row(t('payments.receipt.amount'), ntd(receipt.amount))}
        {row(t('payments.receipt.paid'), <strong>{ntd(receipt.paid)}</strong>, 'receipt-paid')}
        {row(
          t('payments.receipt.refunded'),
          receipt.refunds.length === 0 ? (
            ntd(0)
          ) : (
            <ul className="receipt-refunds">
              {receipt.refunds.map((r, i) => (
                <li key={i}>{t('payments.receipt.refundOn', { amount: ntd(r.amount), time: formatTaipeiDateTime(r.at, locale) })}</li>
              ))}
            </ul>
          ),
          'receipt-refunded',
        )}
        {row(
          t('payments.receipt.paidAt'),
          receipt.paidAt
            ? formatTaipeiDateTime(receipt.paidAt, locale)
            : t('payments.receipt.notCharged', { amount: ntd(receipt.amount), time: receipt.authorisedAt ? formatTaipeiDateTime(receipt.authorisedAt, locale) : '' }),
        )}
        {row(t('payments.receipt.provider'), t(`payments.order.providers.${receipt.provider}`))}
        {row(t('payments.receipt.reference'), <span className="payment-reference">{receipt.providerReference ?? '—'}</span>)}
      </dl>
      <p className="muted small">{t('payments.receipt.currency')}</p>
      <div className="form-actions receipt-actions">
        <button type="button" className="button js-only" onClick={() => window.print()}>
          {t('payments.receipt.print')}
        </button>
        <Link to={`/orders/${receipt.orderId}`} className="button button-secondary">
          {t('payments.receipt.back')}
        </Link>
      </div>
    </article>
  );
}
