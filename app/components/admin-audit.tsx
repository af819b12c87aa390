/*
 * The audit log as a list of entries (issues 22 and 35): on a user's admin page and on /admin/logs. Each entry is a
 * card that reads as a sentence would — what was done (in the admin's language), to what, when and by whom — with
 * what changed as "field: before → after" lines; it fits 360 px (no wide table).
 */
import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { auditActionKey, auditFieldLabel, auditLines, auditValueText, type AuditEntryView } from '~/lib/audit-details';
import { formatTaipeiDateTime } from '~/lib/dates';


/** Where an audited object's admin page is, when it has one. */
function targetHref(type: string | null, id: string | null): string | null {
  if (!id) return null;
  if (type === 'user') return `/admin/users/${id}`;
  if (type === 'order') return `/admin/orders/${id}`;
  if (type === 'guide') return `/admin/guides/${id}`;
  return null;
}

function AuditEntryCard({ entry }: { entry: AuditEntryView }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const href = targetHref(entry.targetType, entry.targetId);
  const target = entry.targetType ? `${t(`admin.logs.targets.${entry.targetType}`, { defaultValue: entry.targetType })} #${entry.targetId ?? ''}` : null;
  const text = (field: string, value: unknown) => auditValueText(t, lang, entry.action, field, value);
  const lines = auditLines(entry.action, entry.details);
  return (
    <li className="audit-entry" data-testid="audit-entry">
      <p className="audit-head">
        <strong className="audit-action">{t(auditActionKey(entry.action), { defaultValue: entry.action })}</strong>
        {target ? (
          <>
            {' · '}
            {href ? <Link to={href}>{target}</Link> : <span>{target}</span>}
          </>
        ) : null}
      </p>
      <p className="audit-meta small muted">
        <time dateTime={entry.at}>{formatTaipeiDateTime(entry.at, lang)}</time>
        {' · '}
        {entry.actorId ? <Link to={`/admin/users/${entry.actorId}`}>{entry.actorName ?? `#${entry.actorId}`}</Link> : t('admin.logs.system')}
      </p>
      {lines.length > 0 ? (
        <ul className="audit-changes small" aria-label={t('admin.logs.changes')}>
          {lines.map((line, i) => (
            <li key={i} data-testid="audit-change">
              {line.change
                ? t('admin.logs.fieldChange', { field: auditFieldLabel(t, line.field), before: text(line.field, line.before), after: text(line.field, line.after) })
                : t('admin.logs.fieldValue', { field: auditFieldLabel(t, line.field), value: text(line.field, line.value) })}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

export function AuditTable({ entries, empty }: { entries: readonly AuditEntryView[]; empty: string }) {
  const { t } = useTranslation();
  if (entries.length === 0) return <p className="muted">{empty}</p>;
  return (
    <ol className="audit-list" data-testid="audit-log" aria-label={t('admin.logs.entries')}>
      {entries.map((e) => (
        <AuditEntryCard key={e.id} entry={e} />
      ))}
    </ol>
  );
}
