import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';

/** The finance area's own pages (issue 32), as chips under the page head; the current one is marked. */
const FINANCE_PAGES = [
  ['/admin/finance', 'overview'],
  ['/admin/finance/payments', 'payments'],
  ['/admin/finance/payouts', 'payouts'],
  ['/admin/finance/reconciliation', 'reconciliation'],
] as const;

export function FinanceNav({ current }: { current: (typeof FINANCE_PAGES)[number][1] }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('admin.finance.sections')}>
      <ul className="stats-presets">
        {FINANCE_PAGES.map(([to, key]) => (
          <li key={key}>
            <Link to={to} className="chip" aria-current={key === current ? 'page' : undefined}>
              {t(`admin.finance.links.${key}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
