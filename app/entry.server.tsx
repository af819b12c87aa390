import { Transform } from 'node:stream';
import type { AppLoadContext, EntryContext, HandleDataRequestFunction, HandleErrorFunction } from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { RemixServer, isRouteErrorResponse } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { NonceProvider } from '~/components/nonce';
import { ServerI18nContext } from '~/i18n/context';
import { serverI18n } from '~/i18n/i18n.server';
import { SESSION_COOKIE } from '~/http/auth.server';
import { logServerError } from '~/http/errors.server';

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

/**
 * react-dom 18.3's Node renderer flushes its whole 2 KB buffer when a multi-byte character (Chinese,
 * Japanese) does not fit at the end, unused zero bytes included; the browser shows them as U+FFFD and a
 * form re-posts them. Valid HTML never contains NUL, so dropping those bytes is exact.
 */
export function withoutNulBytes(): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      callback(null, chunk.indexOf(0) === -1 ? chunk : Buffer.from(chunk.filter((byte) => byte !== 0)));
    },
  });
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
  // Bots (and the no-JS crawl) get the complete document; browsers get the shell as soon as it is ready.
  const readyEvent = isbot(request.headers.get('user-agent') ?? '') ? 'onAllReady' : 'onShellReady';
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerI18nContext.Provider value={serverI18n}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </ServerI18nContext.Provider>
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = withoutNulBytes();
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          markPrivate(request, responseHeaders);
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
