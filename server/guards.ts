import type express from 'express';
import { errorResponse } from '~/http/api.server';
import { contextHeaders } from '~/http/request-context.server';
import { getFixedT, getLocale } from '~/i18n/i18n.server';
import { readAuthorization } from '~/lib/authorization-header';
import { isSameOrigin } from '~/lib/same-origin';
import { AppError, type ErrorCode } from '~/services/platform/errors.server';

/**
 * Requests refused before Remix sees them (ARCHITECTURE §5): methods no route has, paths whose percent-encoding
 * is broken, bodies over the limit (judged by Content-Length before a byte is read), /api calls with an
 * Authorization header that is not a bearer token, cookie-authenticated writes from another origin. /api answers in the JSON envelope (Accept-Language); pages get a short
 * translated HTML page (preferred-language cookie).
 */

/** JSON and form bodies; multipart uploads get 10 MiB for the file plus room for the multipart framing. */
export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
const MULTIPART_OVERHEAD = 64 * 1024;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const isApi = (req: express.Request) => req.path === '/api' || req.path.startsWith('/api/');

/** Sends the refusal for `code`: the envelope under /api, a small page elsewhere. */
async function refuse(req: express.Request, res: express.Response, code: ErrorCode, headers: Record<string, string> = {}) {
  // The original URL may be what is broken; the answer only needs the headers.
  const request = new Request('http://localhost/', { headers: webHeaders(req) });
  res.set({ ...headers, Connection: req.method === 'GET' || req.method === 'HEAD' ? 'keep-alive' : 'close' });
  if (isApiPath(req.originalUrl)) {
    const response = await errorResponse(new AppError(code), request);
    res.status(response.status);
    response.headers.forEach((value, key) => res.setHeader(key, value));
    return res.send(await response.text());
  }
  const locale = await getLocale(request);
  const t = await getFixedT(locale);
  const title = t(`errors.codes.${code}`);
  res
    .status(new AppError(code).status)
    .set('Cache-Control', 'no-store')
    .type('html')
    .send(
      `<!doctype html><html lang="${locale}"><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
        `<title>${escapeHtml(title)}</title><main style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem">` +
        `<h1 style="font-size:1.25rem">${escapeHtml(title)}</h1><p><a href="/">${escapeHtml(t('errors.backHome'))}</a></p>` +
        `<p style="font-size:.875rem;color:#555">${escapeHtml(t('errors.reference', { id: res.locals.requestId ?? '' }))}</p></main></html>`,
    );
}

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

function webHeaders(req: express.Request): Headers {
  const headers = new Headers(contextHeaders(req.headers));
  for (const name of ['accept-language', 'cookie']) {
    const value = req.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** TRACE, CONNECT and made-up methods: 405 with the methods we do answer. */
export const allowedMethodsOnly: express.RequestHandler = (req, res, next) => {
  if (METHODS.includes(req.method)) return next();
  void refuse(req, res, 'METHOD_NOT_ALLOWED', { Allow: METHODS.join(', ') }).catch(next);
};

/** `/%`, `/%E0%A4%A`: a path that cannot be decoded is a bad request, not a server error. */
export const decodablePath: express.RequestHandler = (req, res, next) => {
  try {
    decodeURIComponent(req.path);
    new URL(req.originalUrl, 'http://localhost');
    return next();
  } catch {
    void refuseBadRequest(req, res).catch(next);
  }
};

async function refuseBadRequest(req: express.Request, res: express.Response) {
  return refuse(req, res, 'VALIDATION_ERROR');
}

/**
 * Body size, decided from Content-Length before anything is read: over the limit is 413 and the connection
 * closes, so a 100 MB password is never read, let alone hashed. A body without a length (chunked) is 411:
 * browsers and ordinary API clients always send one, and a stream of unknown size cannot be judged up front.
 */
export const bodySizeLimit: express.RequestHandler = (req, res, next) => {
  const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return next();
  if (req.headers['content-length'] === undefined) return void refuse(req, res, 'LENGTH_REQUIRED').catch(next);
  const length = Number(req.headers['content-length']);
  const multipart = (req.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data');
  const limit = multipart ? MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD : MAX_BODY_BYTES;
  if (!Number.isFinite(length) || length <= limit) {
    // The client is waiting for the go-ahead (server/app.ts createHttpServer); it may now send the body.
    if ((req.get('expect') ?? '').toLowerCase() === '100-continue') res.writeContinue();
    return next();
  }
  void refuse(req, res, multipart ? 'FILE_TOO_LARGE' : 'PAYLOAD_TOO_LARGE').catch(next);
};

/**
 * An /api call with an Authorization header is judged by that header alone (app/lib/authorization.ts): one that
 * is not exactly `Bearer <token>` (`Bearer a b`, `Bearer`, `Basic …`) is 401 UNAUTHORIZED, whatever cookie
 * rides along, before the same-origin check could be skipped for it.
 */
export const apiAuthorization: express.RequestHandler = (req, res, next) => {
  if (!isApi(req) || readAuthorization(req.get('authorization')).kind !== 'invalid') return next();
  void refuse(req, res, 'UNAUTHORIZED').catch(next);
};

/**
 * Writes that a browser could be tricked into sending must come from our own pages (ARCHITECTURE §5): a
 * browser always sends Origin on them. This covers forms and cookie-authenticated /api calls alike; an API
 * call with a well-formed bearer token is not something another site can make a browser send, so it is not
 * checked (and the cookie is then never asked: app/http/session.server.ts).
 */
/**
 * The payment provider's posts (issue 32): its server's callback and the traveler's browser coming back from its
 * page (another origin). Neither acts for a session; each is believed only when its CheckMacValue verifies.
 */
const PROVIDER_POSTS = /^\/payments\/(callback|return\/[0-9]+)$/;

export const sameOriginWrites: express.RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
  if (req.method === 'POST' && PROVIDER_POSTS.test(req.path)) return next();
  if (isApi(req) && readAuthorization(req.get('authorization')).kind === 'bearer') return next();
  if (isSameOrigin(req.get('origin'), req.get('sec-fetch-site'), req.get('host'))) return next();
  void refuse(req, res, 'FORBIDDEN').catch(next);
};
