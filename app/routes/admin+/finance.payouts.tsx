import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AdminPageHead } from '~/components/admin';
import { FilterSelect, filterParams } from '~/components/admin-lists';
import { useMessages } from '~/components/forms/messages';
import { PaginationNav } from '~/components/pagination';
import { replyWithError } from '~/http/forms.server';
import { readForm } from '~/http/page.server';
import { requireRole } from '~/http/session.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { PAYOUT_STATUSES } from '~/lib/payments';
import { financePayoutQuerySchema, markPayoutPaidSchema } from '~/schemas/admin-finance';
import { adminMarkPayoutPaid, listPayoutsForAdmin } from '~/services/payments/finance-admin.server';
import { FinanceNav } from './__finance-nav';

/**
 * /admin/finance/payouts (issue 32): the guides' payouts, newest first, the bank account masked; "mark as paid"
 * is a plain POST form per payout in transit (JS off works: 303 back to the list with a message), audited by the
 * service; "export bank-transfer CSV" downloads GET /api/v1/admin/payouts/export.csv (full account numbers).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const parsed = financePayoutQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const query = parsed.success ? parsed.data : financePayoutQuerySchema.parse({});
  const [t, result] = await Promise.all([getFixedT(request), listPayoutsForAdmin(user, query)]);
  return { title: t('admin.finance.payouts.title'), ...result, filters: { status: query.status ?? '' } };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['admin', 'trust'] };

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const submission = parseWithZod(await readForm(request), { schema: markPayoutPaidSchema });
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  const id = submission.value.payoutId;
  try {
    const { changed } = await adminMarkPayoutPaid(user, id);
    const back = `/admin/finance/payouts${new URL(request.url).search}`;
    return redirectWithToast(back, { key: changed ? 'admin.finance.payouts.done' : 'admin.finance.payouts.already', params: { id }, type: changed ? 'success' : 'info' });
  } catch (error) {
    return replyWithError(request, submission, error);
  }
}

export default function FinancePayouts() {
  const { payouts, pagination, filters } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as { result?: { error?: Record<string, string[] | null> } } | undefined;
  const navigation = useNavigation();
  const busyId = navigation.state === 'submitting' ? String(navigation.formData?.get('payoutId')) : null;
  const messages = useMessages();
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const formError = answer?.result?.error?.[''] ?? answer?.result?.error?.payoutId ?? null;
  return (
    <div className="admin-page">
      <AdminPageHead title={t('admin.finance.payouts.title')} intro={t('admin.finance.payouts.intro')} back={{ to: '/admin/finance', label: t('admin.finance.title') }} />
      <FinanceNav current="payouts" />
      {formError ? (
        <p className="form-error" role="alert">
          {messages(formError)}
        </p>
      ) : null}
      <div className="card">
        <p className="export-link">
          <a href={`/api/v1/admin/payouts/export.csv?lng=${encodeURIComponent(lang)}`} download className="button button-small button-secondary" data-testid="export-payouts-csv">
            {t('admin.finance.payouts.export')}
          </a>
        </p>
        <p className="small muted">{t('admin.finance.payouts.exportHint')}</p>
      </div>
      <Form method="get" className="card filter-form" role="search" aria-label={t('admin.finance.payouts.filters')}>
        <FilterSelect
          id="payout-status"
          name="status"
          label={t('admin.finance.payouts.status')}
          value={filters.status}
          anyLabel={t('admin.any')}
          options={PAYOUT_STATUSES.map((s) => ({ value: s, label: t(`admin.finance.payoutStatus.${s}`) }))}
        />
        <button type="submit" className="button">
          {t('admin.filter')}
        </button>
      </Form>
      <p className="small muted" aria-live="polite" data-testid="payout-total">
        {t('admin.finance.payouts.total', { count: pagination.total })}
      </p>
      {payouts.length === 0 ? (
        <p className="card empty">{t('admin.finance.payouts.empty')}</p>
      ) : (
        <div className="card admin-table-wrap">
          <table className="admin-table finance-table">
            <caption className="visually-hidden">{t('admin.finance.payouts.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('admin.finance.payouts.number')}</th>
                <th scope="col">{t('admin.finance.payouts.guide')}</th>
                <th scope="col" className="num">{t('admin.finance.payouts.amount')}</th>
                <th scope="col">{t('admin.finance.payouts.account')}</th>
                <th scope="col">{t('admin.finance.payouts.status')}</th>
                <th scope="col">{t('admin.finance.payouts.created')}</th>
                <th scope="col">{t('admin.finance.payouts.paidAt')}</th>
                <th scope="col" className="num">{t('admin.finance.payouts.orders')}</th>
                <th scope="col">{t('admin.finance.payouts.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {payouts.map((p) => (
                <tr key={p.id} data-testid={`admin-payout-${p.id}`}>
                  <th scope="row">#{p.id}</th>
                  <td>
                    <Link to={`/admin/users/${p.guide.id}`}>{p.guide.name}</Link>
                  </td>
                  <td className="num">{formatNtd(p.amount, lang)}</td>
                  <td className="finance-ref">{t('admin.finance.payouts.accountValue', { bank: p.bankCode, account: p.accountNumberMasked })}</td>
                  <td data-testid="payout-status">{t(`admin.finance.payoutStatus.${p.status}`)}</td>
                  <td>{formatTaipeiDateTime(p.createdAt, lang)}</td>
                  <td>{p.paidAt ? formatTaipeiDateTime(p.paidAt, lang) : '—'}</td>
                  <td className="num">{p.orders}</td>
                  <td>
                    {p.status === 'in_transit' ? (
                      <Form method="post">
                        <input type="hidden" name="payoutId" value={p.id} />
                        <button type="submit" name="intent" value="paid" className="button button-small" disabled={busyId === String(p.id)} data-testid="mark-paid">
                          {t('admin.finance.payouts.markPaid')}
                          <span className="visually-hidden"> (#{p.id})</span>
                        </button>
                      </Form>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <PaginationNav page={pagination.page} totalPages={pagination.totalPages} basePath="/admin/finance/payouts" params={filterParams(filters)} />
    </div>
  );
}
