import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from '~/components/markdown';
import { safeMarkdownUrl, safeRedirectPath } from '~/lib/safe-url';

describe('markdown links', () => {
  it.each(['http://a.tw', 'https://a.tw/x?y#z', 'mailto:hi@a.tw', 'irc://irc.libera.chat', 'ircs://x', 'xmpp:me@a.tw', '/terms', '#top', '?page=2', 'docs/file:1'])(
    'keeps %s',
    (url) => expect(safeMarkdownUrl(url)).toBe(url),
  );

  it.each(['javascript:alert(1)', 'JavaScript:alert(1)', ' java\tscript:alert(1)', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd'])(
    'drops %s',
    (url) => expect(safeMarkdownUrl(url)).toBe(''),
  );

  it('renders markdown and leaves a javascript: link without href', () => {
    const html = renderToStaticMarkup(
      <Markdown>{'## 服務說明\n\n- 一\n- 二\n\n[壞](javascript:alert(1)) [好](https://example.com/) <script>alert(1)</script>'}</Markdown>,
    );
    expect(html).toContain('<h2>服務說明</h2>');
    expect(html).toContain('<li>一</li>');
    expect(html).toContain('<span class="unsafe-link">壞</span>');
    expect(html).toContain('href="https://example.com/"');
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toContain('<script>');
  });
});

describe('redirect targets', () => {
  it('accepts same-site paths only', () => {
    expect(safeRedirectPath('/guides?page=2')).toBe('/guides?page=2');
    expect(safeRedirectPath('//evil.example')).toBe('/');
    expect(safeRedirectPath('/\\evil.example')).toBe('/');
    expect(safeRedirectPath('https://evil.example')).toBe('/');
    expect(safeRedirectPath(undefined)).toBe('/');
  });
});
