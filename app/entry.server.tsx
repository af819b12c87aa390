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
 * The HTML body between React and the socket.
 *
 * react-dom 18.3's Node renderer flushes its whole 2 KB buffer when a multi-byte character (Chinese,
 * Japanese) does not fit at the end, unused zero bytes included; the browser shows them as U+FFFD and a
 * form re-posts them. Valid HTML never contains NUL, so dropping those bytes is exact.
 *
 * React also hands over a page as a run of 2 KB pieces in one go; passed on one by one, each became a
 * write through the web stream, Express and the socket (a profile of /guides: 9 % of the CPU in writev).
 * Pieces written in the same turn of the event loop leave together.
 */
export function withoutNulBytes(): Transform {
  let pending: Buffer[] = [];
  let scheduled = false;
  const release = (stream: Transform) => {
    scheduled = false;
    if (pending.length === 0) return;
    stream.push(pending.length === 1 ? pending[0] : Buffer.concat(pending));
    pending = [];
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      pending.push(chunk.indexOf(0) === -1 ? chunk : Buffer.from(chunk.filter((byte) => byte !== 0)));
      if (!scheduled) {
        scheduled = true;
        setImmediate(release, this);
      }
      callback();
    },
    flush(callback) {
      release(this);
      callback();
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
  const waitForAll = isbot(request.headers.get('user-agent') ?? '');
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    // Cleared once everything rendered: a pending timer per page kept each finished render alive for 5 s.
    const timer = setTimeout(() => abort(), ABORT_DELAY);
    const sendShell = () => {
      shellRendered = true;
      const body = withoutNulBytes();
      responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
      markPrivate(request, responseHeaders);
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerI18nContext.Provider value={serverI18n}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </ServerI18nContext.Provider>
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          if (!waitForAll) sendShell();
        },
        onAllReady() {
          clearTimeout(timer);
          if (waitForAll) sendShell();
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
