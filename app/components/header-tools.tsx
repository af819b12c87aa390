import { Form, useSubmit } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { LOCALE_NAMES, SUPPORTED_LOCALES } from '~/i18n/config';
import { nextTheme, type Theme } from '~/lib/theme';

/** The header's language and theme forms, shared by the visitor's header and the logged-in one. */

export interface Preferences {
  locale: string;
  theme: Theme;
  redirectTo: string;
}

/** The badge shows the exact count up to 99, then 99+ (SPEC §2 Header). */
export function unreadBadgeText(count: number): string | null {
  if (count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}

/** A plain form: works without JS (submit button); with JS the choice applies on change. */
export function LanguageForm({ locale, redirectTo }: { locale: string; redirectTo: string }) {
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
      {/* Without JS: the apply button. On a logged-in phone header it shrinks to a check mark (its name stays). */}
      <button type="submit" className="button button-small nojs-only language-apply" title={t('language.apply')}>
        <span className="language-apply-icon" aria-hidden="true">
          ✓
        </span>
        <span className="language-apply-label">{t('language.apply')}</span>
      </button>
    </Form>
  );
}

const THEME_ICONS: Record<Theme, string> = { light: '☀', dark: '☾', auto: '◐' };

/**
 * The button shows (and names) what a tap switches to. Two buttons, one per system appearance; CSS shows the
 * one that matches (prefers-color-scheme), so the first tap from 'auto' always changes the screen, JS or not.
 */
export function ThemeForm({ theme, redirectTo }: { theme: Theme; redirectTo: string }) {
  const { t } = useTranslation();
  return (
    <Form method="post" action="/preferences" className="theme-form" preventScrollReset>
      <input type="hidden" name="intent" value="theme" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {([false, true] as const).map((systemDark) => {
        const next = nextTheme(theme, systemDark);
        const label = t('theme.switchTo', { theme: t(`theme.${next}`), current: t(`theme.${theme}`) });
        return (
          <button
            key={String(systemDark)}
            type="submit"
            name="theme"
            value={next}
            className={`icon-button theme-button ${systemDark ? 'theme-when-dark' : 'theme-when-light'}`}
            // The title names the button (its only content is an icon) and shows as its tooltip.
            title={label}
          >
            <span aria-hidden="true">{THEME_ICONS[next]}</span>
          </button>
        );
      })}
    </Form>
  );
}
