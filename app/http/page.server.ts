import { parseIdParam } from '~/lib/ids';
import { AppError } from '~/services/platform/errors.server';
import { readFormBody } from './body.server';

/**
 * The page-side kit (ARCHITECTURE §8), what `apiHandlers` is for the API: page loaders and actions throw a
 * Response and Remix renders the app's error page with its status. Routes call these instead of building
 * `new Response('Not Found')`, parsing ids with their own regex or catching AppError to pick a status.
 */

const TEXT = { 'Content-Type': 'text/plain; charset=utf-8' };

/** The 404 page (a resource route answers the bare text, with `headers`). */
export function notFound(headers?: Record<string, string>): Response {
  return new Response('Not Found', { status: 404, headers: { ...TEXT, ...headers } });
}

/** Throws the error page with `status` (404 unless told) when `condition` does not hold. */
export function invariantResponse(condition: unknown, message = 'Not Found', init: { status?: number } = {}): asserts condition {
  if (!condition) throw new Response(message, { status: init.status ?? 404, headers: TEXT });
}

/**
 * An id from a URL segment, a query parameter or a form field (app/lib/ids.ts, the one rule for ids), or the
 * 404 page: "abc", "0", "1.5", "-1" and ids beyond the column's range name nothing.
 */
export function pageIdParam(raw: FormDataEntryValue | string | number | null | undefined): number {
  const id = typeof raw === 'string' || typeof raw === 'number' ? parseIdParam(raw) : undefined;
  if (id === undefined) throw notFound();
  return id;
}

export interface ErrorPageOptions {
  /** Every service failure is 404: the page does not tell whether the object exists (another's order …). */
  existencePrivate?: boolean;
  /** Headers of the error answer (a resource route's Cache-Control). */
  headers?: Record<string, string>;
}

/**
 * The error page for a service failure: its status (404 for the *_NOT_FOUND codes, 403 FORBIDDEN …), or 404 for
 * every AppError when existence is private. Anything that is not an AppError is given back as it is (a 500).
 */
export function pageErrorResponse(error: unknown, options: ErrorPageOptions = {}): unknown {
  if (!(error instanceof AppError)) return error;
  if (error.status === 404 || options.existencePrivate) return notFound(options.headers);
  return new Response(error.code, { status: error.status, headers: { ...TEXT, ...options.headers } });
}

/** Runs a page loader's service calls; an AppError is thrown as its error page (see pageErrorResponse). */
export async function orErrorPage<T>(work: () => Promise<T>, options: ErrorPageOptions = {}): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw pageErrorResponse(error, options);
  }
}

/**
 * The form a page action was sent (app/http/body.server.ts): a body that is not a form is the 415 page, a form
 * that cannot be read (a broken multipart boundary) the 400 page; no body at all is an empty form.
 */
export function readForm(request: Request): Promise<FormData> {
  return orErrorPage(() => readFormBody(request));
}
