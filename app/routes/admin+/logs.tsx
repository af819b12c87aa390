import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AdminPageHead } from '~/components/admin';
import { AuditTable } from '~/components/admin-audit';
import { FilterInput, FilterSelect, filterParams } from '~/components/admin-lists';
import { ExportLink } from '~/components/export-link';
import { PaginationNav } from '~/components/pagination';
import { requireRole } from '~/http/session.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { auditActionKey } from '~/lib/audit-details';
import { pageMeta } from '~/lib/meta';
import { auditQuerySchema } from '~/schemas/admin-logs';
import { listAuditLog } from '~/services/admin/audit-log.server';

/**
 * /admin/logs (issues 22 and 35): the audit log, newest first, filtered by actor (name, e-mail or number), action,
 * object and Taiwan days; read-only. Actions and changes in the admin's language (components/admin-audit.tsx).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const parsed = auditQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const query = parsed.success ? parsed.data : auditQuerySchema.parse({});
  const [t, result] = await Promise.all([getFixedT(request), listAuditLog(user, query)]);
  const filters = {
    // A link made before issue 35 names the actor by number: the box shows the number, which it also takes.
    actor: query.actor ?? (query.actorId ? String(query.actorId) : ''),
    action: query.action ?? '',
    targetType: query.targetType ?? '',
    targetId: query.targetId ?? '',
    from: query.from ?? '',
    to: query.to ?? '',
  };
  return { title: t('admin.logs.title'), ...result, filters };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['admin', 'trust', 'exports', 'account'] };

const TARGET_TYPES = ['user', 'order', 'review', 'guide', 'photo', 'id_verification', 'chat', 'banner', 'terms', 'board_post', 'board_reply', 'payout'] as const;

export default function AdminLogs() {
  const { entries, pagination, actions, filters } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const actionChoices = [...new Set([...actions, ...(filters.action ? [filters.action] : [])])];
  return (
    <div className="admin-page">
      <AdminPageHead title={t('admin.logs.title')} intro={t('admin.logs.intro')} />
      <Form method="get" className="card filter-form" role="search" aria-label={t('admin.logs.filters')}>
        <FilterInput id="log-actor" name="actor" label={t('admin.logs.actorFilter')} hint={t('admin.logs.actorHint')} value={filters.actor} />
        <FilterSelect
          id="log-action"
          name="action"
          label={t('admin.logs.actionFilter')}
          value={filters.action}
          anyLabel={t('admin.any')}
          options={actionChoices.map((a) => ({ value: a, label: t(auditActionKey(a), { defaultValue: a }) }))}
        />
        <FilterSelect
          id="log-target-type"
          name="targetType"
          label={t('admin.logs.targetType')}
          value={filters.targetType}
          anyLabel={t('admin.any')}
          options={TARGET_TYPES.map((v) => ({ value: v, label: t(`admin.logs.targets.${v}`) }))}
        />
        <FilterInput id="log-target-id" name="targetId" label={t('admin.logs.targetId')} value={filters.targetId} maxLength={40} />
        <FilterInput id="log-from" name="from" type="date" label={t('admin.logs.from')} value={filters.from} />
        <FilterInput id="log-to" name="to" type="date" label={t('admin.logs.to')} value={filters.to} />
        <button type="submit" className="button">
          {t('admin.filter')}
        </button>
      </Form>
      <p className="small muted" aria-live="polite" data-testid="log-total">
        {t('admin.logs.total', { count: pagination.total })}
      </p>
      <ExportLink href="/api/v1/admin/logs/export.csv" filters={filters} />
      <section>
        <AuditTable entries={entries} empty={t('admin.logs.empty')} />
      </section>
      <PaginationNav page={pagination.page} totalPages={pagination.totalPages} basePath="/admin/logs" params={filterParams(filters)} />
    </div>
  );
}
