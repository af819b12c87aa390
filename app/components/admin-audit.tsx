/* The audit log as a table (issue 22): on a user's admin page and on /admin/logs. */
import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { formatTaipeiDateTime } from '~/lib/dates';

export interface AuditRow {
  id: number;
  at: string;
  action: string;
  actorId: number | null;
  actorName: string | null;
  targetType: string | null;
  targetId: string | null;
  details: Record<string, unknown> | null;
}

/** Where an audited object's admin page is, when it has one. */
function targetHref(type: string | null, id: string | null): string | null {
  if (!id) return null;
  if (type === 'user') return `/admin/users/${id}`;
  if (type === 'order') return `/admin/orders/${id}`;
  if (type === 'guide') return `/admin/guides/${id}`;
  return null;
}

/** The details as short "key: value" pairs (the before/after an entry carries). */
function detailText(details: Record<string, unknown> | null): string {
  if (!details) return '';
  return Object.entries(details)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' · ');
}

export function AuditTable({ entries, empty }: { entries: readonly AuditRow[]; empty: string }) {
  const { t, i18n } = useTranslation();
  if (entries.length === 0) return <p className="muted">{empty}</p>;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table" data-testid="audit-table">
        <thead>
          <tr>
            <th scope="col">{t('admin.logs.at')}</th>
            <th scope="col">{t('admin.logs.actor')}</th>
            <th scope="col">{t('admin.logs.action')}</th>
            <th scope="col">{t('admin.logs.target')}</th>
            <th scope="col">{t('admin.logs.details')}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => {
            const href = targetHref(e.targetType, e.targetId);
            const target = e.targetType ? `${t(`admin.logs.targets.${e.targetType}`, { defaultValue: e.targetType })} #${e.targetId ?? ''}` : '—';
            return (
              <tr key={e.id}>
                <td>
                  <time dateTime={e.at}>{formatTaipeiDateTime(e.at, i18n.language)}</time>
                </td>
                <td>{e.actorId ? <Link to={`/admin/users/${e.actorId}`}>{e.actorName ?? `#${e.actorId}`}</Link> : t('admin.logs.system')}</td>
                <td>
                  <code>{e.action}</code>
                </td>
                <td>{href ? <Link to={href}>{target}</Link> : target}</td>
                <td className="small admin-details">{detailText(e.details)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
