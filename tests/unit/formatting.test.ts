import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { Footer } from '~/components/footer';
import { buildOpenApiDocument } from '~/http/openapi.server';
import { createI18n } from '~/i18n/instance';
import en from '~/locales/en/common.json';
import packageJson from '../../package.json';
import { addDays, formatTaipeiDateTime, todayInTaipei } from '~/lib/dates';
import { formatNtd } from '~/lib/money';
import { nextTheme } from '~/lib/theme';
import { matchLocale } from '~/i18n/config';

describe('formatting helpers', () => {
  it('shows prices as NT$ with digit grouping in every language', () => {
    expect(formatNtd(2500, 'zh-TW')).toBe('NT$2,500');
    expect(formatNtd(12000, 'en')).toBe('NT$12,000');
    expect(formatNtd(800, 'ja')).toBe('NT$800');
  });

  it('uses Taiwan dates whatever the server zone', () => {
    // 2026-03-01 17:30 UTC is already 2 March in Taipei.
    expect(todayInTaipei(new Date('2026-03-01T17:30:00Z'))).toBe('2026-03-02');
    expect(addDays('2026-02-27', 2)).toBe('2026-03-01');
    expect(formatTaipeiDateTime('2026-03-01T17:30:00Z', 'en')).toContain('1:30');
  });

  it('the theme toggle always changes the screen from auto: light system auto → dark → light → auto, dark system auto → light → dark → auto', () => {
    expect([nextTheme('auto', false), nextTheme('dark', false), nextTheme('light', false)]).toEqual(['dark', 'light', 'auto']);
    expect([nextTheme('auto', true), nextTheme('light', true), nextTheme('dark', true)]).toEqual(['light', 'dark', 'auto']);
  });

  it('maps browser language tags to supported locales', () => {
    expect(['zh', 'zh-Hant-TW', 'en-US', 'ja-JP', 'fr'].map(matchLocale)).toEqual(['zh-TW', 'zh-TW', 'en', 'ja', undefined]);
  });

  it('shows the version package.json gives, in the footer and the API document', () => {
    const html = renderToStaticMarkup(
      createElement(I18nextProvider, { i18n: createI18n('en', en) }, createElement(MemoryRouter, null, createElement(Footer))),
    );
    expect(html).toContain(`· ${createI18n('en', en).t('app.version', { version: packageJson.version })}`);
    expect(buildOpenApiDocument([]).info.version).toBe(packageJson.version);
  });
});
