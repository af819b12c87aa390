import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AdminPageHead } from '~/components/admin';
import { FilterInput, FilterSelect, filterParams } from '~/components/admin-lists';
import { PaginationNav } from '~/components/pagination';
import { requireRole } from '~/http/session.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { PAYMENT_STATUSES } from '~/lib/payments';
import { financePaymentQuerySchema } from '~/schemas/admin-finance';
import { listPaymentsForAdmin } from '~/services/payments/finance-admin.server';
import { FinanceNav } from './__finance-nav';

/**
 * /admin/finance/payments (issue 32): every payment (each attempt to pay an order) with what was charged and
 * refunded of it, its provider and trade numbers and its times; filtered by status and the day it was opened (a
 * plain GET form), 20 a page. GET /api/v1/admin/payments answers the same list.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const parsed = financePaymentQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const query = parsed.success ? parsed.data : financePaymentQuerySchema.parse({});
  const [t, result] = await Promise.all([getFixedT(request), listPaymentsForAdmin(user, query)]);
  return { title: t('admin.finance.payments.title'), ...result, filters: { status: query.status ?? '', from: query.from ?? '', to: query.to ?? '' } };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['admin', 'trust'] };

export default function FinancePayments() {
  const { payments, pagination, filters } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const at = (iso: string) => formatTaipeiDateTime(iso, lang);
  return (
    <div className="admin-page">
      <AdminPageHead title={t('admin.finance.payments.title')} back={{ to: '/admin/finance', label: t('admin.finance.title') }} />
      <FinanceNav current="payments" />
      <Form method="get" className="card filter-form" role="search" aria-label={t('admin.finance.payments.filters')}>
        <FilterSelect
          id="payment-status"
          name="status"
          label={t('admin.finance.payments.status')}
          value={filters.status}
          anyLabel={t('admin.any')}
          options={PAYMENT_STATUSES.map((s) => ({ value: s, label: t(`admin.finance.paymentStatus.${s}`) }))}
        />
        <FilterInput id="payment-from" name="from" type="date" label={t('admin.finance.payments.from')} value={filters.from} />
        <FilterInput id="payment-to" name="to" type="date" label={t('admin.finance.payments.to')} value={filters.to} />
        <button type="submit" className="button">
          {t('admin.filter')}
        </button>
      </Form>
      <p className="small muted" aria-live="polite" data-testid="payment-total">
        {t('admin.finance.payments.total', { count: pagination.total })}
      </p>
      {payments.length === 0 ? (
        <p className="card empty">{t('admin.finance.payments.empty')}</p>
      ) : (
        <div className="card admin-table-wrap">
          <table className="admin-table finance-table">
            <caption className="visually-hidden">{t('admin.finance.payments.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('admin.finance.payments.order')}</th>
                <th scope="col">{t('admin.finance.payments.status')}</th>
                <th scope="col">{t('admin.finance.payments.parties')}</th>
                <th scope="col" className="num">{t('admin.finance.payments.amount')}</th>
                <th scope="col" className="num">{t('admin.finance.payments.captured')}</th>
                <th scope="col" className="num">{t('admin.finance.payments.refunded')}</th>
                <th scope="col">{t('admin.finance.payments.provider')}</th>
                <th scope="col">{t('admin.finance.payments.times')}</th>
              </tr>
            </thead>
            <tbody>
              {payments.map((p) => (
                <tr key={p.id} data-testid={`admin-payment-${p.id}`}>
                  <th scope="row">
                    <Link to={`/admin/orders/${p.orderId}`}>#{p.orderId}</Link>
                  </th>
                  <td>{t(`admin.finance.paymentStatus.${p.status}`)}</td>
                  <td>
                    <Link to={`/admin/users/${p.traveler.id}`}>{p.traveler.name}</Link> →{' '}
                    <Link to={`/admin/users/${p.guide.id}`}>{p.guide.name}</Link>
                  </td>
                  <td className="num">{formatNtd(p.amount, lang)}</td>
                  <td className="num">{formatNtd(p.captured, lang)}</td>
                  <td className="num">{formatNtd(p.refunded, lang)}</td>
                  <td>
                    {t(`admin.finance.providers.${p.provider}`)}
                    <div className="finance-ref">{p.merchantTradeNo}</div>
                    {p.providerTradeNo ? <div className="finance-ref small muted">{t('admin.finance.payments.tradeNo', { no: p.providerTradeNo })}</div> : null}
                  </td>
                  <td>
                    <span className="finance-times small">
                      <span>{t('admin.finance.payments.opened', { at: at(p.createdAt) })}</span>
                      {p.authorisedAt ? <span>{t('admin.finance.payments.authorisedAt', { at: at(p.authorisedAt) })}</span> : null}
                      {p.capturedAt ? <span>{t('admin.finance.payments.capturedAt', { at: at(p.capturedAt) })}</span> : null}
                      {p.updatedAt !== p.createdAt ? <span>{t('admin.finance.payments.updatedAt', { at: at(p.updatedAt) })}</span> : null}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <PaginationNav page={pagination.page} totalPages={pagination.totalPages} basePath="/admin/finance/payments" params={filterParams(filters)} />
    </div>
  );
}
