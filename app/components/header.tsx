import { Form, Link, useLocation, useSubmit } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { FALLBACK_LOCALE, LOCALE_NAMES, SUPPORTED_LOCALES } from '~/i18n/config';
import { nextTheme, type Theme } from '~/lib/theme';
import { useRootData } from '~/lib/root-data';
import { Logo } from './logo';

/** Header for visitors who are not logged in (SPEC §2): logo, name, login avatar, register, login, language, theme. */
export function Header() {
  const { t } = useTranslation();
  const data = useRootData();
  const location = useLocation();
  const redirectTo = location.pathname + location.search;
  return (
    <header className="site-header">
      <div className="container header-inner">
        <Link to="/" className="brand" aria-label={t('app.title')}>
          <Logo />
          <span className="brand-name">{t('app.title')}</span>
        </Link>
        {/* On phones the account links share the first row with the logo; browsing and settings go below. */}
        <div className="header-account">
          <Link to="/register" className="nav-link">
            {t('nav.register')}
          </Link>
          <Link to="/login" className="button button-small">
            {t('nav.login')}
          </Link>
          <Link to="/login" className="login-avatar" aria-label={t('nav.loginAvatar')}>
            <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
              <circle cx="12" cy="8" r="4" fill="currentColor" />
              <path d="M4 21c0-4.4 3.6-7 8-7s8 2.6 8 7" fill="currentColor" />
            </svg>
          </Link>
        </div>
        <div className="header-row">
          <nav className="header-nav" aria-label={t('nav.mainNavigation')}>
            <Link to="/guides" className="nav-link">
              {t('nav.guides')}
            </Link>
          </nav>
          <div className="header-tools">
            <LanguageForm locale={data?.locale ?? FALLBACK_LOCALE} redirectTo={redirectTo} />
            <ThemeForm theme={data?.theme ?? 'auto'} redirectTo={redirectTo} />
          </div>
        </div>
      </div>
    </header>
  );
}

/** A plain form: works without JS (submit button); with JS the choice applies on change. */
function LanguageForm({ locale, redirectTo }: { locale: string; redirectTo: string }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  return (
    <Form method="post" action="/preferences" className="language-form" preventScrollReset>
      <input type="hidden" name="intent" value="locale" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <label className="visually-hidden" htmlFor="locale-select">
        {t('language.label')}
      </label>
      <select
        id="locale-select"
        name="locale"
        defaultValue={locale}
        key={locale}
        onChange={(e) => submit(e.currentTarget.form, { preventScrollReset: true })}
      >
        {SUPPORTED_LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
      <button type="submit" className="button button-small nojs-only">
        {t('language.apply')}
      </button>
    </Form>
  );
}

const THEME_ICONS: Record<Theme, string> = { light: '☀', dark: '☾', auto: '◐' };

function ThemeForm({ theme, redirectTo }: { theme: Theme; redirectTo: string }) {
  const { t } = useTranslation();
  const next = nextTheme(theme);
  return (
    <Form method="post" action="/preferences" className="theme-form" preventScrollReset>
      <input type="hidden" name="intent" value="theme" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button
        type="submit"
        name="theme"
        value={next}
        className="icon-button"
        aria-label={t('theme.switchTo', { theme: t(`theme.${next}`), current: t(`theme.${theme}`) })}
        title={t('theme.switchTo', { theme: t(`theme.${next}`), current: t(`theme.${theme}`) })}
      >
        <span aria-hidden="true">{THEME_ICONS[theme]}</span>
      </button>
    </Form>
  );
}
