import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { requireDebugAccess } from '~/http/debug.server';
import { pageMeta } from '~/lib/meta';
import { listUsersForDebug } from '~/services/booking/dashboards.server';

/** /dev/users — debug page (SPEC §2): every account and its flags. Admins only in production (404 for others). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireDebugAccess(request);
  const [rows, t] = await Promise.all([listUsersForDebug(), getFixedT(request)]);
  const users = rows.map(({ blockedAt, deletedAt, ...u }) => ({ ...u, blocked: Boolean(blockedAt), archived: Boolean(deletedAt) }));
  return { users, title: t('account.dev.usersTitle') };
}

/** This page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['account'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...pageMeta(matches, data?.title),
  { name: 'robots', content: 'noindex' },
];

export default function DevUsers() {
  const { users } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  // Verified is good news (green); blocked or archived is a warning (red).
  const flag = (on: boolean, bad = false) => (
    <span className={on ? (bad ? 'flag-bad' : 'flag-yes') : 'muted'}>{on ? t('account.dev.yes') : t('account.dev.no')}</span>
  );
  return (
    <section className="debug-page" aria-labelledby="dev-users-title">
      <h1 id="dev-users-title">{t('account.dev.usersTitle')}</h1>
      <p className="debug-notice">{t('account.dev.notice')}</p>
      <p className="muted">{t('account.dev.usersCount', { count: users.length })}</p>
      <div className="table-scroll">
        <table className="debug-table" data-testid="dev-users">
          <thead>
            <tr>
              <th scope="col">{t('account.dev.id')}</th>
              <th scope="col">{t('account.dev.name')}</th>
              <th scope="col">{t('account.dev.email')}</th>
              <th scope="col">{t('account.dev.type')}</th>
              <th scope="col">{t('account.dev.emailVerified')}</th>
              <th scope="col">{t('account.dev.idVerified')}</th>
              <th scope="col">{t('account.dev.blocked')}</th>
              <th scope="col">{t('account.dev.archived')}</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id}>
                <td>{u.id}</td>
                <td>{u.name}</td>
                <td>{u.email}</td>
                <td>{t(`account.types.${u.type}`)}</td>
                <td>{flag(u.isEmailVerified)}</td>
                <td>{flag(u.isIdVerified)}</td>
                <td>{flag(u.blocked, true)}</td>
                <td>{flag(u.archived, true)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
