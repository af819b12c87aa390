import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { ErrorPage } from '~/components/error-page';
import { createI18n } from '~/i18n/instance';
import en from '~/locales/en/common.json';
import ja from '~/locales/ja/common.json';
import zhTW from '~/locales/zh-TW/common.json';

const render = (locale: string, translations: Record<string, unknown>, status?: number) =>
  renderToStaticMarkup(
    <I18nextProvider i18n={createI18n(locale, translations)}>
      <ErrorPage status={status} />
    </I18nextProvider>,
  );

describe('error page', () => {
  it('shows 出現錯誤 with a retry button for a render error', () => {
    const html = render('zh-TW', zhTW);
    expect(html).toContain('<h1 id="error-title">出現錯誤</h1>');
    expect(html).toMatch(/<a class="button" href="">重試<\/a>/);
    expect(html).toContain('role="alert"');
  });

  it('is translated', () => {
    expect(render('en', en)).toContain('>Try again</a>');
    expect(render('ja', ja)).toContain('>再試行</a>');
    expect(render('en', en, 404)).toContain('Page not found');
    expect(render('ja', ja, 403)).toContain('アクセス権がありません');
  });

  it('shows a 404 page with a way home', () => {
    const html = render('zh-TW', zhTW, 404);
    expect(html).toContain('找不到頁面');
    expect(html).toContain('href="/"');
    expect(html).not.toContain('重試');
  });
});
