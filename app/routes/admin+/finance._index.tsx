import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AdminPageHead } from '~/components/admin';
import { requireRole } from '~/http/session.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { ledgerOverview } from '~/services/payments/finance-admin.server';
import { FinanceNav } from './__finance-nav';

/**
 * /admin/finance (issue 32): the ledger's balances in words, and whether the ledger sums to zero.
 * GET /api/v1/admin/ledger answers the same figures (one service call).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const [t, overview] = await Promise.all([getFixedT(request), ledgerOverview(user)]);
  return { title: t('admin.finance.title'), overview };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['admin', 'trust'] };

const LINES = [
  'heldForTravelers',
  'owedToGuides',
  'platformCommission',
  'refunds',
  'payoutsInTransit',
  'paidOut',
  'providerClearing',
  'providerAuthorised',
] as const;

export default function FinanceOverview() {
  const { overview } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <div className="admin-page">
      <AdminPageHead title={t('admin.finance.title')} intro={t('admin.finance.intro')} />
      <FinanceNav current="overview" />
      <p className={`card ${overview.balanced ? 'finance-balanced' : 'finance-unbalanced'}`} role="status" data-testid="ledger-balanced">
        {overview.balanced ? t('admin.finance.balanced', { total: formatNtd(overview.total, lang) }) : t('admin.finance.unbalanced', { total: formatNtd(overview.total, lang) })}
      </p>
      <section className="card" aria-labelledby="finance-balances">
        <h2 id="finance-balances">{t('admin.finance.balances.title')}</h2>
        <dl className="finance-balances">
          {LINES.map((line) => (
            <div key={line} data-testid={`balance-${line}`}>
              <dt>{t(`admin.finance.balances.${line}`)}</dt>
              <dd>
                <span className="finance-amount">{formatNtd(overview[line], lang)}</span>
                <span className="small muted">
                  {line === 'owedToGuides' ? t('admin.finance.balances.owedToGuidesHint', { count: overview.guidesOwed }) : t(`admin.finance.balances.${line}Hint`)}
                </span>
              </dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
