import { describe, expect, it } from 'vitest';
import { SHARED_CACHE } from '~/http/contract';
import { useTestServer } from '../../support/http-server';
import { openApiDocument } from '../../support/openapi';
import { useTestDatabase } from '../../support/test-database';

/**
 * Issue 33, the reference page: /api/docs is an HTML page (not the JSON 404 of unknown /api paths) rendered on the
 * server from the document /api/v1/openapi.json serves: every tag and every operation, each with its errors and an
 * example request; its chrome in the reader's language. Real HTTP.
 */
useTestDatabase();
const server = useTestServer();

const HTML = { accept: 'text/html' };

/** Text of the page as a reader sees it (the few entities React writes). */
const decode = (html: string) =>
  html.replaceAll('&#x27;', "'").replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

/** The markup of one operation's <details>. */
function operationBlock(html: string, operationId: string): string {
  const start = html.indexOf(`<details id="${operationId}"`);
  expect(start, `${operationId} is on the page`).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</details>', start));
}

describe('/api/docs', () => {
  it('is a page listing every tag and every operation of the OpenAPI document, with the same operation ids', async () => {
    const response = await server.request('/api/docs', { headers: { ...HTML, 'accept-language': 'en' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    // Public and anonymous: a shared cache may keep it (docs/decisions/043).
    expect(response.headers.get('cache-control')).toBe(SHARED_CACHE);
    expect(response.headers.get('etag')).toMatch(/^W\//);

    const html = response.text;
    const { doc } = await openApiDocument(server);
    const tags = new Set<string>();
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item as unknown as Record<string, { operationId: string; tags: string[] }>)) {
        operations += 1;
        tags.add(operation.tags[0]!);
        const block = operationBlock(html, operation.operationId);
        expect(block, `${method} ${path}`).toContain(`>${method.toUpperCase()}</span> <code class="api-path">${path}</code>`);
      }
    }
    expect(operations).toBeGreaterThan(100);
    expect((html.match(/<details id="/g) ?? []).length).toBe(operations);
    for (const tag of tags) {
      expect(html, tag).toContain(`<section id="${tag}"`);
      expect(html, tag).toContain(`<a href="#${tag}">${tag}</a>`);
    }
    expect(html).toContain('href="/api/v1/openapi.json"');
  });

  it('shows POST /api/v1/orders with its errors and a curl example with the token, an Idempotency-Key and a JSON body', async () => {
    const html = (await server.request('/api/docs', { headers: HTML })).text;
    const { doc } = await openApiDocument(server);
    const operation = (doc.paths['/api/v1/orders'] as Record<string, { operationId: string; responses: Record<string, any> }>).post!;
    const block = decode(operationBlock(html, operation.operationId));

    const example = block.slice(block.indexOf('<pre class="api-example"><code>') + 31, block.indexOf('</code></pre>'));
    expect(example).toMatch(/^curl -X POST 'http:\/\/[^']+\/api\/v1\/orders'/);
    expect(example).toContain("-H 'Authorization: Bearer <token>'");
    expect(example).toContain("-H 'Idempotency-Key: ");
    expect(example).toContain("-H 'Content-Type: application/json'");
    const body = JSON.parse(example.match(/-d '(.*)'$/)![1]!) as Record<string, unknown>;
    expect(body).toMatchObject({ guideId: 1, date: expect.stringMatching(/^\d{4}-\d\d-\d\d$/), timeSlot: expect.any(String) });

    // Every error code the document gives the operation, under its status.
    for (const [status, answer] of Object.entries(operation.responses)) {
      if (Number(status) < 400) continue;
      const codes = answer.content['application/json'].schema.allOf[1].properties.code.enum as string[];
      expect(codes.length).toBeGreaterThan(0);
      expect(block).toContain(`<tr><td>${status}</td><td class="api-codes">${codes.join(', ')}</td></tr>`);
    }
    expect(block).toContain('ALREADY_BOOKED');
    // A public operation's example carries no token.
    const login = decode(operationBlock(html, 'postAuthLogin'));
    expect(login).toContain("curl -X POST 'http");
    expect(login.slice(login.indexOf('curl '))).not.toContain('Authorization');
    expect(login.slice(login.indexOf('curl '))).not.toContain('Idempotency-Key');
  });

  it('speaks the reader’s language around the English reference', async () => {
    const expected = {
      'zh-TW': ['API 參考文件', '參數', '請求內容', '回應', '錯誤', '範例', '可呼叫者', '參考內容以英文撰寫'],
      en: ['API reference', 'Parameters', 'Request body', 'Answers', 'Errors', 'Example', 'Who may call', 'The reference is in English'],
      ja: ['API リファレンス', 'パラメーター', 'リクエストボディ', 'レスポンス', 'エラー', '例', '呼び出せる人', 'リファレンスは英語で'],
    };
    for (const [lang, words] of Object.entries(expected)) {
      const response = await server.request('/api/docs', { headers: { ...HTML, 'accept-language': lang } });
      expect(response.status).toBe(200);
      expect(response.text).toContain(`<html lang="${lang}"`);
      for (const word of words) expect(decode(response.text), `${lang}: ${word}`).toContain(word);
    }
  });

  it('is linked from the footer of every page', async () => {
    const html = (await server.request('/', { headers: { ...HTML, 'accept-language': 'ja' } })).text;
    expect(html).toMatch(/<a [^>]*href="\/api\/docs"[^>]*>開発者向け<\/a>/);
  });
});
