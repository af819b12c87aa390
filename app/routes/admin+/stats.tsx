import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AdminPageHead } from '~/components/admin';
import { Stat } from '~/components/dashboard';
import { FieldFrame, fieldErrorId } from '~/components/forms/field-frame';
import { BarChart, ColumnChart, type Series } from '~/components/stats-charts';
import { requireRole } from '~/http/session.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { ORDER_STATUSES } from '~/lib/order-status';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { STATS_PRESETS } from '~/lib/stats-range';
import { statsQuerySchema } from '~/schemas/admin-stats';
import { adminStats } from '~/services/admin/admin-stats.server';

/**
 * /admin/stats (issue 22): the marketplace's figures for a period — bookings and gross value per day and month,
 * new accounts per week by role, orders by status, the top cities and guides, the rating distribution and the
 * funnel from a guide's page to a completed tour. The period is chosen by links (7, 30, 90 days, this year) or a
 * plain GET form of two dates. GET /api/v1/admin/stats answers the same numbers (one service call).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const typed = { from: params.from ?? '', to: params.to ?? '' };
  const t = await getFixedT(request);
  const parsed = statsQuerySchema.safeParse(params);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'to');
      errors[field] ??= t(/\.errors\./.test(issue.message) ? issue.message : 'validation.invalid');
    }
    return data({ title: t('stats.title'), stats: null, typed, errors }, { status: 400 });
  }
  const stats = await adminStats(user, parsed.data);
  const custom = stats.range.preset === null ? { from: stats.range.from, to: stats.range.to } : typed;
  return { title: t('stats.title'), stats, typed: custom, errors: {} as Record<string, string> };
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageMeta(matches, loaded?.title);
export const handle: I18nHandle = { i18n: ['stats', 'account', 'trust'] };

export default function AdminStats() {
  const { stats, typed, errors } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const ntd = (n: number) => formatNtd(n, i18n.language);
  const number = (n: number) => n.toLocaleString(i18n.language);
  const active = stats?.range.preset ?? null;
  const roles: Series[] = [
    { key: 'traveler', label: t('account.types.traveler'), tone: 1 },
    { key: 'guide', label: t('account.types.guide'), tone: 2 },
    { key: 'admin', label: t('account.types.admin'), tone: 3 },
  ];
  return (
    <div className="admin-page stats-page">
      <AdminPageHead title={t('stats.title')} intro={t('stats.intro')} />

      <section className="card stats-period" aria-labelledby="stats-period-title">
        <h2 id="stats-period-title">
          {t('stats.period.title')}
        </h2>
        <ul className="stats-presets">
          {STATS_PRESETS.map((preset) => (
            <li key={preset}>
              <Link to={`/admin/stats?range=${preset}`} className="chip" aria-current={active === preset ? 'page' : undefined}>
                {t(`stats.period.presets.${preset}`)}
              </Link>
            </li>
          ))}
        </ul>
        <Form method="get" className="filter-form" aria-label={t('stats.period.custom')} noValidate>
          <FieldFrame id="stats-from" label={t('stats.period.from')} error={errors.from}>
            <input id="stats-from" name="from" type="date" defaultValue={typed.from} aria-invalid={errors.from ? true : undefined} aria-describedby={errors.from ? fieldErrorId('stats-from') : undefined} />
          </FieldFrame>
          <FieldFrame id="stats-to" label={t('stats.period.to')} error={errors.to}>
            <input id="stats-to" name="to" type="date" defaultValue={typed.to} aria-invalid={errors.to ? true : undefined} aria-describedby={errors.to ? fieldErrorId('stats-to') : undefined} />
          </FieldFrame>
          <button type="submit" className="button">
            {t('stats.period.show')}
          </button>
        </Form>
        {stats ? (
          <p className="small muted" aria-live="polite" data-testid="stats-period">
            {t('stats.period.showing', { from: stats.range.from, to: stats.range.to, count: stats.range.days })}
          </p>
        ) : null}
      </section>

      {stats ? (
        <>
          <ul className="stat-grid stat-grid-3" data-testid="stats-totals">
            <Stat label={t('stats.totals.bookings')} value={number(stats.totals.bookings)} testId="total-bookings" />
            <Stat label={t('stats.totals.grossValue')} value={ntd(stats.totals.grossValue)} testId="total-gross" />
            <Stat label={t('stats.totals.newUsers')} value={number(stats.totals.newUsers)} testId="total-new-users" />
          </ul>
          <div className="stats-charts">
            <ColumnChart
              testId="chart-bookings-per-day"
              title={t('stats.charts.bookingsPerDay.title')}
              tableLabel={t('stats.tableOf', { title: t('stats.charts.bookingsPerDay.title') })}
              description={t('stats.charts.bookingsPerDay.description')}
              head={t('stats.columns.day')}
              rows={stats.bookingsPerDay.map((d) => ({ label: d.day, values: { bookings: d.bookings } }))}
              series={[{ key: 'bookings', label: t('stats.columns.bookings'), tone: 1 }]}
              format={number}
            />
            <ColumnChart
              testId="chart-gross-per-day"
              title={t('stats.charts.grossPerDay.title')}
              tableLabel={t('stats.tableOf', { title: t('stats.charts.grossPerDay.title') })}
              description={t('stats.charts.grossPerDay.description')}
              head={t('stats.columns.day')}
              rows={stats.bookingsPerDay.map((d) => ({ label: d.day, values: { gross: d.grossValue } }))}
              series={[{ key: 'gross', label: t('stats.columns.grossValue'), tone: 1 }]}
              format={ntd}
            />
            <ColumnChart
              testId="chart-gross-per-month"
              title={t('stats.charts.grossPerMonth.title')}
              tableLabel={t('stats.tableOf', { title: t('stats.charts.grossPerMonth.title') })}
              description={t('stats.charts.grossPerMonth.description')}
              head={t('stats.columns.month')}
              rows={stats.grossPerMonth.map((m) => ({ label: m.month, values: { gross: m.grossValue } }))}
              series={[{ key: 'gross', label: t('stats.columns.grossValue'), tone: 1 }]}
              format={ntd}
            />
            <ColumnChart
              testId="chart-new-users"
              title={t('stats.charts.newUsers.title')}
              tableLabel={t('stats.tableOf', { title: t('stats.charts.newUsers.title') })}
              description={t('stats.charts.newUsers.description')}
              head={t('stats.columns.week')}
              rows={stats.newUsersPerWeek.map((w) => ({ label: w.week, values: { traveler: w.traveler, guide: w.guide, admin: w.admin } }))}
              series={roles}
              format={number}
            />
            <BarChart
              testId="chart-orders-by-status"
              title={t('stats.charts.ordersByStatus.title')}
              tableLabel={t('stats.tableOf', { title: t('stats.charts.ordersByStatus.title') })}
              description={t('stats.charts.ordersByStatus.description')}
              head={t('stats.columns.status')}
              valueHead={t('stats.columns.orders')}
              rows={ORDER_STATUSES.map((s) => ({ label: t(`account.orderStatus.${s}`), value: stats.ordersByStatus[s] }))}
              format={number}
              empty={t('stats.empty')}
            />
            <BarChart
              testId="chart-funnel"
              title={t('stats.charts.funnel.title')}
              tableLabel={t('stats.tableOf', { title: t('stats.charts.funnel.title') })}
              description={t('stats.charts.funnel.description')}
              head={t('stats.columns.step')}
              valueHead={t('stats.columns.count')}
              rows={(['guidePageViews', 'bookingFormViews', 'orders', 'completed'] as const).map((step) => ({
                label: t(`stats.funnel.${step}`),
                value: stats.funnel[step],
              }))}
              format={number}
              empty={t('stats.empty')}
            />
            <BarChart
              testId="chart-top-cities"
              title={t('stats.charts.topCities.title')}
              tableLabel={t('stats.tableOf', { title: t('stats.charts.topCities.title') })}
              description={t('stats.charts.topCities.description')}
              head={t('stats.columns.city')}
              valueHead={t('stats.columns.bookings')}
              rows={stats.topCities.map((c) => ({ label: c.city ? t(`cities.${c.city}`, { defaultValue: c.city }) : t('stats.noCity'), value: c.bookings }))}
              format={number}
              empty={t('stats.empty')}
            />
            <BarChart
              testId="chart-top-guides"
              title={t('stats.charts.topGuides.title')}
              tableLabel={t('stats.tableOf', { title: t('stats.charts.topGuides.title') })}
              description={t('stats.charts.topGuides.description')}
              head={t('stats.columns.guide')}
              valueHead={t('stats.columns.bookings')}
              rows={stats.topGuides.map((g) => ({ label: `${g.name} (#${g.guideId})`, value: g.bookings }))}
              format={number}
              empty={t('stats.empty')}
            />
            <BarChart
              testId="chart-ratings"
              title={t('stats.charts.ratings.title')}
              tableLabel={t('stats.tableOf', { title: t('stats.charts.ratings.title') })}
              description={t('stats.charts.ratings.description')}
              head={t('stats.columns.rating')}
              valueHead={t('stats.columns.reviews')}
              rows={[...stats.ratingDistribution].reverse().map((r) => ({ label: t('stats.stars', { count: r.rating }), value: r.count }))}
              format={number}
              empty={t('stats.empty')}
            />
          </div>
        </>
      ) : null}
    </div>
  );
}
