import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useNavigate } from '@remix-run/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { RefreshWithoutJs } from '~/components/meta-refresh';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { getSession } from '~/http/session.server';
import { pageMeta } from '~/lib/meta';

/** After logout: the logged-out message, then home after 2.5 s (SPEC §2 /logout-success). */
const REDIRECT_DELAY_MS = 2500;

export async function loader({ request }: LoaderFunctionArgs) {
  // Someone still (or again) logged in has not logged out: this page would tell them otherwise.
  if (await getSession(request)) throw redirect('/');
  const t = await getFixedT(request);
  return { title: t('auth.logoutSuccess.title') };
}

/** This page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['auth'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export default function LogoutSuccess() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    // SPEC §4: logout always clears the client's token and user.
    try {
      localStorage.removeItem('token');
      localStorage.removeItem('user');
    } catch {
      /* storage may be disabled */
    }
    const timer = window.setTimeout(() => navigate('/', { replace: true }), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [navigate]);
  return (
    <section className="auth-page" aria-labelledby="logout-title">
      <RefreshWithoutJs seconds={REDIRECT_DELAY_MS / 1000} url="/" />
      <div className="card auth-card auth-done">
        <h1 id="logout-title">{t('auth.logoutSuccess.heading')}</h1>
        <p className="muted" role="status">
          {t('auth.logoutSuccess.text')}
        </p>
        <p>
          <Link to="/" replace className="button">
            {t('auth.logoutSuccess.backHome')}
          </Link>
        </p>
      </div>
    </section>
  );
}
