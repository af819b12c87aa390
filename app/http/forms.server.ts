import type { Submission as ConformSubmission, SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, type HeadersFunction } from '@remix-run/node';
import type { z } from 'zod';
import { getFixedT } from '~/i18n/i18n.server';
import { AppError, parseValue } from '~/services/platform/errors.server';

/**
 * The form-action kit (ARCHITECTURE §8), what `apiHandlers` is for the API. A form action is
 *   schema → one service call → a reply (field errors, status, toast),
 * and this file is the one place in the page layer that tells a service's refusal (an AppError, shown to the
 * person) from a crash (thrown on, the 500 page): routes call `attempt`, `submitForm` or `parseForm` and
 * never catch AppError themselves.
 */

/** What one service call came to: its value, or the AppError it refused with. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: AppError };

/** Runs one service call; a refusal (AppError) comes back as a value, anything else is thrown (the 500 page). */
export async function attempt<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error };
    throw error;
  }
}

/** The Retry-After header of a refusal that has one (429, a resend cooldown), for `data(..., { headers })`. */
export function retryAfterHeaders(error: AppError): Record<string, string> | undefined {
  return error.retryAfter ? { 'Retry-After': String(error.retryAfter) } : undefined;
}

/** A refusal's message in the reader's language. */
export async function errorMessage(request: Request, error: AppError): Promise<string> {
  const t = await getFixedT(request);
  return t(error.messageKey, error.params);
}

/** The same refusal, its message under another key (and, with `field`, shown next to that field). */
export function reworded(error: AppError, messageKey: string, field?: string): AppError {
  return new AppError(error.code, {
    messageKey,
    params: error.params,
    fieldErrors: field ? { [field]: [messageKey] } : undefined,
    retryAfter: error.retryAfter,
    details: error.details,
  });
}

type ParsedForm<Value> =
  | { ok: true; value: Value; submission: ConformSubmission<Value> }
  | { ok: false; reply: ReturnType<typeof invalidReply>; submission: ConformSubmission<Value>; fieldErrors: Record<string, string[]> };

function invalidReply(submission: ConformSubmission<unknown>, hideFields?: string[]) {
  return data({ result: submission.reply({ hideFields }) }, { status: 400 });
}

/**
 * A form read through its zod schema (conform): the value, or the 400 reply that re-renders the form with the
 * typed values and the field errors (fields in `hideFields`, passwords and codes, are never echoed back).
 */
export function parseForm<S extends z.ZodType>(
  formData: FormData,
  schema: S,
  options: { hideFields?: string[] } = {},
): ParsedForm<z.output<S>> {
  const submission = parseWithZod(formData, { schema }) as ConformSubmission<z.output<S>>;
  if (submission.status === 'success') return { ok: true, value: submission.value, submission };
  const fieldErrors = (submission.status === 'error' ? submission.error : undefined) ?? {};
  return { ok: false, reply: invalidReply(submission as ConformSubmission<unknown>, options.hideFields), submission, fieldErrors: fieldErrors as Record<string, string[]> };
}

/**
 * A form's value through `schema` for actions that answer without re-rendering a form (a toast, a fetcher's
 * JSON): an invalid form is a VALIDATION_ERROR refusal, to be answered like any other (`attempt`).
 */
export function formValue<S extends z.ZodType>(schema: S, formData: FormData): z.output<S> {
  return parseValue(schema, Object.fromEntries(formData));
}

export interface SubmitOptions<Value = unknown> {
  /** Fields never echoed back (passwords, codes). */
  hideFields?: string[];
  /** More data in the error reply (which of a page's forms answered). */
  extra?: Record<string, unknown>;
  /** Word field errors with the refusal's values (replyWithError). */
  wordFieldErrors?: boolean;
  /** How a refusal is shown: another wording (`reworded`), or a whole answer of its own (a redirect). */
  explain?: (error: AppError, value: Value) => AppError | Response | Promise<AppError | Response>;
}

/**
 * A whole form action: the form through `schema`, then `run` (the one service call and the success answer it
 * leads to, usually a redirect with a toast). An invalid form is the 400 re-render with field errors; a
 * refusal re-renders the form with the service's message or field errors and the refusal's status.
 */
export async function submitForm<S extends z.ZodType, Answer>(
  request: Request,
  formData: FormData,
  schema: S,
  run: (value: z.output<S>) => Promise<Answer>,
  options: SubmitOptions<z.output<S>> = {},
) {
  const parsed = parseForm(formData, schema, options);
  if (!parsed.ok) return parsed.reply;
  const outcome = await attempt(() => run(parsed.value));
  if (outcome.ok) return outcome.value;
  const shown = options.explain ? await options.explain(outcome.error, parsed.value) : outcome.error;
  if (shown instanceof Response) throw shown;
  return replyWithError(request, parsed.submission, shown, options);
}

/**
 * Form actions answer a service failure by re-rendering the form with the message, keeping every value
 * the person typed (conform's reply carries them). Messages are translated here in the reader's
 * language; field errors that are validation keys are translated by the form itself, so the same keys
 * also work for conform's client-side checks.
 */
type Submission = { reply(options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }): SubmissionResult<string[]> };

export async function replyWithError<Extra extends Record<string, unknown> = Record<never, never>>(
  request: Request,
  submission: Submission,
  error: unknown,
  options: {
    hideFields?: string[];
    extra?: Extra;
    /**
     * Word the field errors here with the error's values (a guide's maximum group size) and keep the message
     * above the form too: for keys the form could not word without those values.
     */
    wordFieldErrors?: boolean;
  } = {},
) {
  if (!(error instanceof AppError)) throw error;
  const t = await getFixedT(request);
  const message = t(error.messageKey, error.params);
  const fieldErrors =
    options.wordFieldErrors && error.fieldErrors
      ? Object.fromEntries(Object.entries(error.fieldErrors).map(([field, keys]) => [field, keys.map((key) => t(key, error.params))]))
      : error.fieldErrors;
  const result = submission.reply({
    formErrors: error.fieldErrors && !options.wordFieldErrors ? [] : [message],
    fieldErrors,
    hideFields: options.hideFields,
  });
  const headers = error.retryAfter ? { 'Retry-After': String(error.retryAfter) } : undefined;
  // A refusal's facts (`details`: the order that already holds a slot) go with it, for the page to link to.
  return data({ result, code: error.code, details: error.details, ...(options.extra as Extra) }, { status: error.status, headers });
}

/**
 * The `headers` export of a page whose action can answer 429: Remix takes a document's headers from this
 * function, so without it the action's Retry-After never reaches the browser.
 */
export const forwardRetryAfter: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const headers = new Headers();
  const retryAfter = actionHeaders.get('Retry-After') ?? loaderHeaders.get('Retry-After');
  if (retryAfter) headers.set('Retry-After', retryAfter);
  return headers;
};
