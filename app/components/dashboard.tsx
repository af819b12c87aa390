import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderStatus } from '~/lib/order-status';

/** One number on a role home page; a link when there is a page behind it. */
export function Stat({ label, value, to, testId }: { label: string; value: ReactNode; to?: string; testId?: string }) {
  // The label comes first in the markup (a screen reader says "訂單 3"); CSS shows the number on top.
  const body = (
    <>
      <span className="stat-label">{label}</span>
      <span className="stat-value" data-testid={testId}>
        {value}
      </span>
    </>
  );
  return (
    <li>
      {to ? (
        <Link to={to} className="stat">
          {body}
        </Link>
      ) : (
        <div className="stat">{body}</div>
      )}
    </li>
  );
}


export function StatusPill({ status }: { status: OrderStatus }) {
  const { t } = useTranslation();
  return <span className={`status-pill status-${status}`}>{t(`account.orderStatus.${status}`)}</span>;
}
