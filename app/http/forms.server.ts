import type { SubmissionResult } from '@conform-to/react';
import { data, type HeadersFunction } from '@remix-run/node';
import { getFixedT } from '~/i18n/i18n.server';
import { AppError } from '~/services/errors.server';

/**
 * Form actions answer a service failure by re-rendering the form with the message, keeping every value
 * the person typed (conform's reply carries them). Messages are translated here in the reader's
 * language; field errors that are validation keys are translated by the form itself, so the same keys
 * also work for conform's client-side checks.
 */
type Submission = { reply(options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }): SubmissionResult<string[]> };

export async function replyWithError(
  request: Request,
  submission: Submission,
  error: unknown,
  options: { hideFields?: string[]; extra?: Record<string, unknown> } = {},
) {
  if (!(error instanceof AppError)) throw error;
  const t = await getFixedT(request);
  const message = t(error.messageKey, error.params);
  const result = submission.reply({
    formErrors: error.fieldErrors ? [] : [message],
    fieldErrors: error.fieldErrors,
    hideFields: options.hideFields,
  });
  const headers = error.retryAfter ? { 'Retry-After': String(error.retryAfter) } : undefined;
  return data({ result, code: error.code, ...options.extra }, { status: error.status, headers });
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
