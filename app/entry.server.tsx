import { Writable } from 'node:stream';
import type { AppLoadContext, EntryContext, HandleDataRequestFunction, HandleErrorFunction } from '@remix-run/node';
import { RemixServer, isRouteErrorResponse } from '@remix-run/react';
import type { ReactElement } from 'react';
import { renderToPipeableStream, renderToString } from 'react-dom/server';
import { NonceProvider } from '~/components/nonce';
import { ServerI18nContext } from '~/i18n/context';
import { serverI18n } from '~/i18n/i18n.server';
import { SESSION_COOKIE } from '~/http/session.server';
import { logServerError } from '~/http/errors.server';
import { addVary, cacheControlFor, conditionalAnswer, hasCredentials, variantOf } from '~/http/conditional.server';
import type { PageCacheHandle } from '~/http/contract';

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

/** Marks a Suspense boundary React gave up on and left to the browser (an error or a suspension inside it). */
const CLIENT_RENDERED_BOUNDARY = '<!--$!-->';

/** One read of the stream as Remix's StreamTransfer keeps it (`renderMeta.streamCache`). */
type HandoffEntry = NonNullable<NonNullable<EntryContext['renderMeta']>['streamCache']>[number];

/**
 * Reads the loader data's stream (single fetch) to its end before rendering, and hands it to Remix's
 * StreamTransfer as already read, so nothing in the page suspends on the server. No loader defers data, so
 * the stream is complete as soon as the loaders are; a promise one day deferred is simply waited for here.
 */
async function readHandoff(context: EntryContext): Promise<void> {
  const stream = context.serverHandoffStream;
  if (!stream || !context.renderMeta) return;
  let entry: HandoffEntry;
  try {
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
    text += decoder.decode();
    entry = Object.assign(Promise.resolve(), { result: { done: true, value: text } });
  } catch (error) {
    // StreamTransfer throws it inside its Suspense boundary: the page still goes out, with a 500 (below).
    entry = Object.assign(Promise.resolve(), { error });
  }
  context.renderMeta.streamCache = { 0: entry };
}

/** RemixServer takes a reader of the stream on every render; the data itself now comes from the cache. */
function freshHandoffStream(context: EntryContext): void {
  if (context.serverHandoffStream) context.serverHandoffStream = new ReadableStream({ start: (controller) => controller.close() });
}

/**
 * Renders a whole HTML document. `element` is called once per render pass (RemixServer needs a fresh stream
 * reader each time). Every page is sent whole, to browsers and bots alike, and with the loader data already
 * read (readHandoff) nothing suspends on the server: renderToString builds the page as one string. The
 * streaming renderer encoded every small piece of markup into bytes on its own (about a sixth of a busy
 * /guides' CPU). An error thrown outside any Suspense boundary rejects, and Remix renders the error page.
 * An error inside a boundary: renderToString drops it and leaves that part to the browser, so the page is
 * rendered again with the streaming renderer, which reports it (onBoundaryError, status 500) and still sends
 * the page, the browser rendering that part itself.
 */
export async function renderDocument(
  element: () => ReactElement,
  { nonce, status, onBoundaryError }: { nonce?: string; status: number; onBoundaryError: (error: unknown) => void },
): Promise<{ body: string | Buffer<ArrayBuffer>; status: number }> {
  const html = renderToString(element());
  // The streaming renderer writes the doctype itself before a root <html>; renderToString does not.
  if (!html.includes(CLIENT_RENDERED_BOUNDARY)) return { body: `<!DOCTYPE html>${html}`, status };

  return new Promise((resolve, reject) => {
    // Cleared once everything rendered: a pending timer per page kept each finished render alive for 5 s.
    const timer = setTimeout(() => abort(), ABORT_DELAY);
    const boundaryErrors: unknown[] = [];
    const { pipe, abort } = renderToPipeableStream(element(), {
      nonce,
      onAllReady() {
        clearTimeout(timer);
        boundaryErrors.forEach(onBoundaryError);
        pipe(htmlCollector((body) => resolve({ body, status: boundaryErrors.length > 0 ? 500 : status })));
      },
      onShellError(error: unknown) {
        clearTimeout(timer);
        reject(error);
      },
      onError(error: unknown) {
        // Before the shell is ready this is also reported to onShellError, and Remix logs it (handleError).
        boundaryErrors.push(error);
      },
    });
  });
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  await readHandoff(remixContext);
  const { body, status } = await renderDocument(
    () => {
      freshHandoffStream(remixContext);
      return (
        <NonceProvider value={nonce}>
          <ServerI18nContext.Provider value={serverI18n}>
            <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
          </ServerI18nContext.Provider>
        </NonceProvider>
      );
    },
    { nonce, status: responseStatusCode, onBoundaryError: (error) => logServerError(error, request) },
  );
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  if (status === 200 && (request.method === 'GET' || request.method === 'HEAD')) {
    const notModified = tagPage(request, body, responseHeaders, remixContext, [nonce, loadContext.requestId]);
    if (notModified) return notModified;
  }
  markPrivate(request, responseHeaders);
  return new Response(body, { headers: responseHeaders, status });
}

/**
 * A page's ETag, Cache-Control and Vary (docs/decisions/043-conditional-requests.md); the 304 when the browser holds
 * it already. The tag is of the page without what is new on every request, its CSP nonce and its request id (the
 * root loader's, for error reports): the 304 leaves the browser's copy with its own nonce and its own
 * Content-Security-Policy (server/app.ts drops that header from a 304).
 * Logged in: private, no-store (markPrivate). Anonymous: a shared cache may keep the catalogue pages a minute
 * (`handle.cache`), the others must be asked again; a page that sets a cookie is private.
 */
function tagPage(request: Request, body: string | Buffer, headers: Headers, context: EntryContext, perRequest: Array<string | undefined>): Response | undefined {
  const shared = context.staticHandlerContext.matches.some((m) => (context.routeModules[m.route.id]?.handle as PageCacheHandle | undefined)?.cache === 'shared');
  if (!headers.has('Cache-Control')) {
    const anonymous = !hasCredentials(request) && !headers.has('set-cookie');
    // An anonymous page that is not the catalogue: `no-cache` rather than private, as the service worker keeps those
    // for offline reading.
    headers.set('Cache-Control', shared || !anonymous ? cacheControlFor(request, headers, shared ? 'shared' : 'private') : 'no-cache');
  }
  addVary(headers, 'Accept-Language', 'Cookie');
  const html = typeof body === 'string' ? body : body.toString('utf8');
  let pieces = [html];
  for (const value of perRequest) if (value) pieces = pieces.flatMap((piece) => piece.split(value));
  const answer = conditionalAnswer(request, pieces, headers, variantOf(request));
  if (answer) markPrivate(request, answer.headers);
  return answer;
}
