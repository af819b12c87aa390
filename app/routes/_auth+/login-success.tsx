import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData, useNavigate } from '@remix-run/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { RefreshWithoutJs } from '~/components/meta-refresh';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { requireUser, roleHome } from '~/http/session.server';
import { isFirstLogin } from '~/lib/first-login';
import { pageMeta } from '~/lib/meta';
import { safeRedirectPath } from '~/lib/safe-url';

/** After login: greets by role, then goes on after 1.5 s (SPEC §2 /login-success). */
const REDIRECT_DELAY_MS = 1500;

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const url = new URL(request.url);
  const target = safeRedirectPath(url.searchParams.get('redirectTo'), roleHome(user.type));
  const t = await getFixedT(request);
  // ?first=1: the login that brought the person here was the account's first ("welcome", not "welcome back").
  return { name: user.name, type: user.type, first: isFirstLogin(url), target, title: t('auth.loginSuccess.title') };
}

/** This page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['auth'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export default function LoginSuccess() {
  const { name, type, first, target } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    const timer = window.setTimeout(() => navigate(target, { replace: true }), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [navigate, target]);
  return (
    <section className="auth-page" aria-labelledby="login-success-title">
      <RefreshWithoutJs seconds={REDIRECT_DELAY_MS / 1000} url={target} />
      <div className="card auth-card auth-done">
        <h1 id="login-success-title">{t(`auth.loginSuccess.${first ? 'first' : 'again'}.${type}`, { name })}</h1>
        <p className="muted" role="status">
          {t('auth.loginSuccess.redirecting')}
        </p>
        <p>
          <Link to={target} replace className="button">
            {t('auth.loginSuccess.continue')}
          </Link>
        </p>
      </div>
    </section>
  );
}
