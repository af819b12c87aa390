import { Link, useLocation, useMatches } from '@remix-run/react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { FALLBACK_LOCALE } from '~/i18n/config';
import { useRootData } from '~/lib/root-data';
import { LanguageForm, ThemeForm, type Preferences } from './header-tools';
import { Logo } from './logo';
import { UserHeader as UserHeaderNow } from './user-header';

export { unreadBadgeText } from './header-tools';
export type { HeaderUserData } from './user-header';

/**
 * The logged-in header is rendered by the server like the rest (JS-off pages have it), but in the browser it
 * is a chunk of its own that only pages of logged-in people load: visitors' first-load JS does not carry it.
 */
const UserHeader = import.meta.env.SSR
  ? UserHeaderNow
  : lazy(() => import('./user-header').then((module) => ({ default: module.UserHeader })));

/** The site header (SPEC §2 Header): one variant for visitors, one for people who are logged in. */
export function Header() {
  const data = useRootData();
  const location = useLocation();
  const redirectTo = location.pathname + location.search;
  const locale = data?.locale ?? FALLBACK_LOCALE;
  const theme = data?.theme ?? 'auto';
  // A conversation page marks messages read while the root loader counts (loaders run in parallel): its count is the newer.
  const matches = useMatches();
  if (matches.some((m) => (m.handle as { bareHeader?: boolean } | undefined)?.bareHeader)) return <BareHeader />;
  const unreadMessages = matches
    .map((m) => (m.data as { headerUnreadMessages?: number } | undefined)?.headerUnreadMessages)
    .find((n) => n !== undefined);
  if (data?.user) {
    return (
      <Suspense fallback={<div className="site-header" />}>
        <UserHeader user={data.user} unreadCount={data.unreadCount ?? 0} unreadMessages={unreadMessages ?? data.unreadMessages ?? 0} locale={locale} theme={theme} redirectTo={redirectTo} />
      </Suspense>
    );
  }
  return <VisitorHeader locale={locale} theme={theme} redirectTo={redirectTo} />;
}

/** The logo and the name, home. */
function Brand() {
  const { t } = useTranslation();
  return (
    <Link to="/" className="brand" aria-label={t('app.title')}>
      <Logo />
      <span className="brand-name">{t('app.title')}</span>
    </Link>
  );
}

/** A page that cannot know its reader (the offline page): the brand only. */
function BareHeader() {
  return (
    <header className="site-header">
      <div className="container header-inner">
        <Brand />
      </div>
    </header>
  );
}

/** Visitors who are not logged in: logo, name, login avatar, register, login, language, theme. */
function VisitorHeader({ locale, theme, redirectTo }: Preferences) {
  const { t } = useTranslation();
  return (
    <header className="site-header">
      <div className="container header-inner">
        <Brand />
        {/* On phones the account links share the first row with the logo; browsing and settings go below. */}
        <div className="header-account">
          <Link to="/register" className="nav-link">
            {t('nav.register')}
          </Link>
          <Link to="/login" className="button button-small">
            {t('nav.login')}
          </Link>
          {/* The person icon is drawn by the stylesheet (.login-avatar::before). */}
          <Link to="/login" className="login-avatar" aria-label={t('nav.loginAvatar')} />
        </div>
        <div className="header-row">
          <nav className="header-nav" aria-label={t('nav.mainNavigation')}>
            <Link to="/guides" className="nav-link">
              {t('nav.guides')}
            </Link>
            <Link to="/board" className="nav-link">
              {t('nav.board')}
            </Link>
          </nav>
          <div className="header-tools">
            <LanguageForm locale={locale} redirectTo={redirectTo} />
            <ThemeForm theme={theme} redirectTo={redirectTo} />
          </div>
        </div>
      </div>
    </header>
  );
}

