import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AdminPageHead } from '~/components/admin';
import { FilterInput, FilterSelect, filterParams } from '~/components/admin-lists';
import { ExportLink } from '~/components/export-link';
import { PaginationNav } from '~/components/pagination';
import { requireRole } from '~/http/session.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDate } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { ADMIN_ORDER_PAGE_SIZE, adminOrderQuerySchema } from '~/schemas/admin-orders';
import { ORDER_STATUS_VALUES } from '~/schemas/orders';
import { listOrdersForAdmin } from '~/services/admin/admin-orders.server';
import { slotWithHours } from '~/lib/time-slots';

/**
 * /admin/orders (issue 22): every order, newest first, 20 a page, filtered by status, tour and booking dates
 * (Taiwan days), guide, traveler (name, e-mail or number) and order number; or the deleted ones. A GET form.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const typed = Object.fromEntries(new URL(request.url).searchParams);
  // A page number that is none is page 1; it is no filter to correct.
  if (!adminOrderQuerySchema.shape.page.safeParse(typed.page).success) delete typed.page;
  const parsed = adminOrderQuerySchema.safeParse(typed);
  const t = await getFixedT(request);
  if (!parsed.success) {
    // A filter the list cannot use (a range typed backwards, a date or number that is none): say which, next to
    // its field, keep everything typed, and list nothing rather than something else (issue 35).
    const text = (name: string) => (typeof typed[name] === 'string' ? typed[name] : '');
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      errors[field] ??= t(/\.errors\./.test(issue.message) ? issue.message : 'validation.invalid');
    }
    const filters = Object.fromEntries(FILTER_NAMES.map((name) => [name, text(name)])) as Record<(typeof FILTER_NAMES)[number], string>;
    const pagination = { page: 1, limit: ADMIN_ORDER_PAGE_SIZE, total: 0, totalPages: 1, hasNext: false, hasPrev: false };
    return { title: t('admin.orders.title'), orders: [], pagination, filters, errors };
  }
  const query = parsed.data;
  const result = await listOrdersForAdmin(user, query);
  const filters = {
    status: query.status ?? '',
    tourFrom: query.tourFrom ?? '',
    tourTo: query.tourTo ?? '',
    createdFrom: query.createdFrom ?? '',
    createdTo: query.createdTo ?? '',
    guide: query.guide ?? '',
    traveler: query.traveler ?? '',
    id: query.id ? String(query.id) : '',
    deleted: query.deleted ?? '',
  };
  return { title: t('admin.orders.title'), ...result, filters, errors: {} as Record<string, string> };
}

const FILTER_NAMES = ['status', 'tourFrom', 'tourTo', 'createdFrom', 'createdTo', 'guide', 'traveler', 'id', 'deleted'] as const;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['admin', 'trust', 'account', 'exports'] };

export default function AdminOrders() {
  const { orders, pagination, filters, errors } = useLoaderData<typeof loader>();
  const failed = Object.keys(errors).length > 0;
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <div className="admin-page">
      <AdminPageHead title={t('admin.orders.title')} />
      <Form method="get" className="card filter-form" role="search" aria-label={t('admin.orders.filters')}>
        <FilterInput id="order-id" name="id" label={t('admin.orders.number')} value={filters.id} maxLength={12} error={errors.id} />
        <FilterSelect
          id="order-status"
          name="status"
          label={t('admin.orders.status')}
          value={filters.status}
          anyLabel={t('admin.any')}
          options={ORDER_STATUS_VALUES.map((s) => ({ value: s, label: t(`account.orderStatus.${s}`) }))}
        />
        <FilterInput id="order-guide" name="guide" label={t('admin.orders.guide')} value={filters.guide} error={errors.guide} />
        <FilterInput id="order-traveler" name="traveler" label={t('admin.orders.traveler')} value={filters.traveler} error={errors.traveler} />
        <FilterInput id="order-tour-from" name="tourFrom" type="date" label={t('admin.orders.tourFrom')} value={filters.tourFrom} error={errors.tourFrom} />
        <FilterInput id="order-tour-to" name="tourTo" type="date" label={t('admin.orders.tourTo')} value={filters.tourTo} error={errors.tourTo} />
        <FilterInput id="order-created-from" name="createdFrom" type="date" label={t('admin.orders.createdFrom')} value={filters.createdFrom} error={errors.createdFrom} />
        <FilterInput id="order-created-to" name="createdTo" type="date" label={t('admin.orders.createdTo')} value={filters.createdTo} error={errors.createdTo} />
        <FilterSelect
          id="order-deleted"
          name="deleted"
          label={t('admin.orders.showDeleted')}
          value={filters.deleted}
          anyLabel={t('admin.no')}
          options={[{ value: 'only', label: t('admin.orders.deletedOnly') }]}
        />
        <button type="submit" className="button">
          {t('admin.filter')}
        </button>
      </Form>
      <p className={failed ? 'field-error' : 'small muted'} aria-live="polite" data-testid="order-total">
        {failed ? t('admin.orders.fixFilters') : t('admin.orders.total', { count: pagination.total })}
      </p>
      {failed ? null : <ExportLink href="/api/v1/orders/export.csv" filters={filters} />}
      {failed ? null : orders.length === 0 ? (
        <p className="card empty">{t('admin.orders.empty')}</p>
      ) : (
        <div className="card admin-table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">{t('admin.orders.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('admin.orders.number')}</th>
                <th scope="col">{t('admin.orders.status')}</th>
                <th scope="col">{t('admin.orders.tourDate')}</th>
                <th scope="col">{t('admin.orders.traveler')}</th>
                <th scope="col">{t('admin.orders.guide')}</th>
                <th scope="col">{t('admin.orders.amount')}</th>
                <th scope="col">{t('admin.orders.created')}</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.id} data-testid={`admin-order-${o.id}`}>
                  <th scope="row">
                    <Link to={`/admin/orders/${o.id}`}>#{o.id}</Link>
                  </th>
                  <td>
                    {t(`account.orderStatus.${o.status}`)}
                    {o.deletedAt ? <> · {t('admin.orders.deleted')}</> : null}
                  </td>
                  <td>
                    {o.date} {slotWithHours(t, o.timeSlot)}
                  </td>
                  <td>
                    <Link to={`/admin/users/${o.travelerId}`}>{o.travelerName}</Link>
                  </td>
                  <td>
                    <Link to={`/admin/users/${o.guideId}`}>{o.guideName}</Link>
                  </td>
                  <td>{formatNtd(o.totalPrice, lang)}</td>
                  <td>{formatTaipeiDate(o.createdAt, lang)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <PaginationNav page={pagination.page} totalPages={pagination.totalPages} basePath="/admin/orders" params={filterParams(filters)} />
    </div>
  );
}
