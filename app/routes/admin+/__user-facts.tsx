import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { formatTaipeiDateTime } from '~/lib/dates';
import type { getUserForAdmin } from '~/services/admin/admin-user-detail.server';

type AdminUserView = Awaited<ReturnType<typeof getUserForAdmin>>['user'];

/** /admin/users/:id's facts (issue 22): the account's profile and its verification. Not a route (`__`). */
export function UserFacts({ user, liveSessions }: { user: AdminUserView; liveSessions: number }) {
  const { t, i18n } = useTranslation();
  const archived = user.archivedAt !== null;
  const blocked = user.blockedAt !== null;
  const date = (iso: string | null) => (iso ? formatTaipeiDateTime(iso, i18n.language) : '—');
  const yesNo = (v: boolean) => t(v ? 'admin.yes' : 'admin.no');
  return (
    <>
      <section className="card" aria-labelledby="user-profile">
        <h2 id="user-profile">{t('admin.users.profile')}</h2>
        <dl className="stat-list">
          <div>
            <dt>{t('admin.users.email')}</dt>
            <dd className="admin-email">{user.email}</dd>
          </div>
          <div>
            <dt>{t('admin.users.role')}</dt>
            <dd data-testid="user-role">{t(`admin.roles.${user.type}`)}</dd>
          </div>
          <div>
            <dt>{t('admin.users.status')}</dt>
            <dd data-testid="user-state">
              <span className={`state-label state-${user.accountState}`}>{t(`admin.states.${user.accountState}`)}</span>
              {archived ? <> · {t('admin.users.archived')}</> : null}
            </dd>
          </div>
          <div>
            <dt>{t('admin.users.registered')}</dt>
            <dd>{date(user.registerDate)}</dd>
          </div>
          <div>
            <dt>{t('admin.users.lastLogin')}</dt>
            <dd>{user.lastLogin ? date(user.lastLogin) : t('admin.users.never')}</dd>
          </div>
          <div>
            <dt>{t('admin.users.liveSessions')}</dt>
            <dd data-testid="user-sessions">{liveSessions}</dd>
          </div>
          {blocked ? (
            <div>
              <dt>{t('admin.users.blockedAt')}</dt>
              <dd>{date(user.blockedAt)}</dd>
            </div>
          ) : null}
          {archived ? (
            <div>
              <dt>{t('admin.users.archivedAt')}</dt>
              <dd>{date(user.archivedAt)}</dd>
            </div>
          ) : null}
          {user.city ? (
            <div>
              <dt>{t('admin.users.city')}</dt>
              <dd>{t(`cities.${user.city}`, { defaultValue: user.city })}</dd>
            </div>
          ) : null}
          {user.type === 'guide' ? (
            <div>
              <dt>{t('admin.users.guidePage')}</dt>
              <dd>
                <Link to={`/admin/guides/${user.id}`}>{t('admin.users.guideAdmin')}</Link>
              </dd>
            </div>
          ) : null}
        </dl>
      </section>

      <section className="card" aria-labelledby="user-verification">
        <h2 id="user-verification">{t('admin.users.verification')}</h2>
        <dl className="stat-list">
          <div>
            <dt>{t('admin.users.emailVerified')}</dt>
            <dd data-testid="user-email-verified">
              {yesNo(user.isEmailVerified)}
              {user.emailVerificationDate ? ` · ${date(user.emailVerificationDate)}` : ''}
            </dd>
          </div>
          {user.pendingEmail ? (
            <div>
              <dt>{t('admin.users.pendingEmail')}</dt>
              <dd className="admin-email">{user.pendingEmail}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t('admin.users.idVerified')}</dt>
            <dd>
              {yesNo(user.isIdVerified)}
              {user.idVerificationDate ? ` · ${date(user.idVerificationDate)}` : ''}
              {user.idVerificationType ? ` · ${user.idVerificationType}` : ''}
            </dd>
          </div>
        </dl>
      </section>
    </>
  );
}
