import { Writable } from 'node:stream';
import type { AppLoadContext, EntryContext, HandleDataRequestFunction, HandleErrorFunction } from '@remix-run/node';
import { RemixServer, isRouteErrorResponse } from '@remix-run/react';
import { renderToPipeableStream } from 'react-dom/server';
import { NonceProvider } from '~/components/nonce';
import { ServerI18nContext } from '~/i18n/context';
import { serverI18n } from '~/i18n/i18n.server';
import { SESSION_COOKIE } from '~/http/auth.server';
import { logServerError } from '~/http/errors.server';

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

/**
 * Drops NUL bytes from a piece of HTML. react-dom 18.3's Node renderer flushes its whole 2 KB buffer when a
 * multi-byte character (Chinese, Japanese) does not fit at the end, unused zero bytes included; the browser
 * shows them as U+FFFD and a form re-posts them. Valid HTML never contains NUL, so dropping them is exact.
 * The zeros come as a run at the end of a piece, so this copies slices rather than testing byte by byte.
 */
export function withoutNulBytes(chunk: Buffer): Buffer {
  let zero = chunk.indexOf(0);
  if (zero === -1) return chunk;
  const parts: Buffer[] = [];
  let start = 0;
  while (zero !== -1) {
    if (zero > start) parts.push(chunk.subarray(start, zero));
    start = zero + 1;
    while (start < chunk.length && chunk[start] === 0) start += 1;
    zero = chunk.indexOf(0, start);
  }
  if (start < chunk.length) parts.push(chunk.subarray(start));
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/**
 * Gathers a rendered page into one buffer. React hands a page over as a run of 2 KB pieces; streamed one by
 * one, each went through a Transform, a web stream, Express and the socket (about 10 % of a busy /guides).
 */
function htmlCollector(onDone: (html: Buffer<ArrayBuffer>) => void): Writable {
  const pieces: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      pieces.push(withoutNulBytes(chunk));
      callback();
    },
  });
  sink.on('finish', () => onDone(Buffer.concat(pieces)));
  return sink;
}

/**
 * A page or `.data` answer for someone logged in holds their own data: no shared cache may keep it and the
 * browser may not reuse it after logout (ARCHITECTURE §5). Anonymous pages keep their default caching.
 */
function markPrivate(request: Request, headers: Headers): void {
  if ((request.headers.get('cookie') ?? '').includes(`${SESSION_COOKIE}=`)) headers.set('Cache-Control', 'private, no-store');
}

export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  markPrivate(request, response.headers);
  return response;
};

/** Errors from loaders, actions and rendering, logged without request values (app/http/errors.server.ts). */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  logServerError(isRouteErrorResponse(error) && (error as { error?: unknown }).error ? (error as { error?: unknown }).error : error, request);
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  // Every page is sent whole, to browsers and bots alike. Loaders have resolved before rendering starts (no
  // route defers data), so the whole page is ready in the same turn as its shell: streaming the shell first
  // would gain nothing and cost a write per piece.
  return new Promise((resolve, reject) => {
    // Cleared once everything rendered: a pending timer per page kept each finished render alive for 5 s.
    const timer = setTimeout(() => abort(), ABORT_DELAY);
    // Errors inside a Suspense boundary: the page is still sent (the browser renders that part), with a 500.
    const boundaryErrors: unknown[] = [];
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerI18nContext.Provider value={serverI18n}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </ServerI18nContext.Provider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          clearTimeout(timer);
          for (const error of boundaryErrors) logServerError(error, request);
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          markPrivate(request, responseHeaders);
          pipe(htmlCollector((html) => resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }))));
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          // Before the shell is ready this is also reported to onShellError, and Remix logs it (handleError).
          boundaryErrors.push(error);
          responseStatusCode = 500;
        },
      },
    );
  });
}
