import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { buildOpenApiDocument } from '~/http/openapi.server';
import { useTestDatabase } from '../../support/test-database';

/**
 * Retiring an operation (docs/decisions/044): a contract marked deprecated answers with Deprecation (RFC 9745),
 * Sunset (RFC 8594) and the successor's Link on every answer, success and failure, through the API boundary every
 * /api/v1 route uses; the OpenAPI document marks it deprecated. An operation not marked carries none of it.
 */
useTestDatabase();

const contract = defineApi({
  path: '/api/v1/old-things',
  tags: ['test'],
  operations: {
    GET: {
      summary: 'An old list',
      auth: 'public',
      query: z.object({ n: z.coerce.number().int().min(1).optional() }),
      data: z.object({ things: z.array(z.string()) }),
      errors: [],
      deprecated: { since: '2026-12-01', sunset: '2027-06-01', successor: '/api/v1/new-things' },
    },
    POST: {
      summary: 'A current write',
      auth: 'public',
      data: z.object({ ok: z.literal(true) }),
      errors: [],
    },
  },
});
const handlers = apiHandlers(contract, { GET: async () => ({ things: ['a'] }), POST: async () => ({ ok: true as const }) });
const call = (url: string, method = 'GET') =>
  (method === 'GET' ? handlers.loader : handlers.action)({ request: new Request(`http://localhost${url}`, { method }), params: {}, context: {} } as never);

describe('a deprecated operation', () => {
  it('says so, with its sunset and successor, on a success and on a refusal', async () => {
    for (const url of ['/api/v1/old-things', '/api/v1/old-things?n=0']) {
      const answer = await call(url);
      expect(answer.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 11, 1) / 1000}`);
      expect(answer.headers.get('sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
      expect(answer.headers.get('link')).toBe('</api/v1/new-things>; rel="successor-version"');
    }
    expect((await call('/api/v1/old-things?n=0')).status).toBe(400);
    const current = await call('/api/v1/old-things', 'POST');
    expect(current.status).toBe(200);
    expect(current.headers.get('deprecation')).toBeNull();
    expect(current.headers.get('sunset')).toBeNull();
  });

  it('is marked deprecated in the OpenAPI document, with its sunset and successor', () => {
    const document = buildOpenApiDocument([contract]) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const get = document.paths['/api/v1/old-things']!.get!;
    expect(get).toMatchObject({ deprecated: true, 'x-sunset': '2027-06-01', 'x-successor': '/api/v1/new-things' });
    expect(Object.keys((get.responses as Record<string, { headers?: object }>)['200']!.headers!)).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']));
    expect(document.paths['/api/v1/old-things']!.post!.deprecated).toBeUndefined();
  });
});
