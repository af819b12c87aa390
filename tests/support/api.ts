import { createSession } from '~/services/accounts/sessions.server';
import { issueToken } from '~/services/accounts/accounts.server';
import { sessionCookieHeader } from '~/http/session.server';
import type { UserRow } from '~/services/accounts/users.server';

/**
 * Calls a route module's loader or action the way Remix does, with a real Request, and reads the answer.
 * No HTTP mock: the function under test is the route itself, and it runs real SQL.
 */
type RouteFn = (args: { request: Request; params: Record<string, string>; context: { cspNonce: string; clientIp?: string } }) => unknown;

export interface CallOptions {
  method?: string;
  /** JSON body (sent as application/json) or FormData. */
  body?: unknown;
  token?: string;
  cookie?: string;
  params?: Record<string, string>;
  ip?: string;
  headers?: Record<string, string>;
  path?: string;
}

export async function callRoute(fn: RouteFn, options: CallOptions = {}) {
  const headers = new Headers(options.headers);
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers.set('content-type', 'application/json');
  }
  if (options.token) headers.set('authorization', `Bearer ${options.token}`);
  if (options.cookie) headers.set('cookie', options.cookie);
  const request = new Request(`http://localhost${options.path ?? '/'}`, {
    method: options.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
  });
  let result: unknown;
  try {
    result = await fn({ request, params: options.params ?? {}, context: { cspNonce: 'test', clientIp: options.ip ?? '203.0.113.1' } });
  } catch (thrown) {
    if (thrown instanceof Response) result = thrown;
    else throw thrown;
  }
  return readResult(result);
}

/**
 * Normalises what a loader/action returned: a Response, or a plain value, or Remix's `data()` wrapper. For
 * `data()` only the payload is given: whether its status and headers reach a client depends on Remix (they
 * never did from resource routes), so status lines and headers are asserted over real HTTP
 * (tests/support/http-server.ts), and `status` here is undefined.
 */
async function readResult(result: unknown) {
  if (result instanceof Response) {
    const text = await result.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: result.status, headers: result.headers, json, text };
  }
  if (result && typeof result === 'object' && (result as any).type === 'DataWithResponseInit') {
    return { status: undefined, headers: new Headers(), json: (result as { data: unknown }).data as any, text: '' };
  }
  return { status: undefined, headers: new Headers(), json: result as any, text: '' };
}

/** A logged-in API client and browser for a user: a bearer token and a session cookie. */
export async function loginAs(user: UserRow) {
  const api = await createSession(user.id, 'api');
  const web = await createSession(user.id, 'web');
  const cookie = (await sessionCookieHeader(web)).split(';')[0]!;
  return { token: issueToken(user, api), cookie, apiSessionId: api.id, webSessionId: web.id };
}
