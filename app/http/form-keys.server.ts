import { randomUUID } from 'node:crypto';
import { redirect } from '@remix-run/node';
import { FORM_KEY_FIELD } from '~/lib/form-key';
import { AppError } from '~/services/platform/errors.server';
import {
  completeIdempotencyKey,
  isValidIdempotencyKey,
  recentFormKey,
  releaseIdempotencyKey,
  requestHash,
  reserveIdempotencyKey,
} from '~/services/platform/idempotency.server';

/**
 * One-time keys for web forms (issue 33, docs/decisions/042): what the Idempotency-Key header is for the API. The
 * page renders a key in a hidden field; the action reserves it in the same store (caller, POST, the page's path),
 * so a double tap, a resubmit after a lost answer or the back button's second submit gets the first answer (its
 * redirect) again instead of a second booking. The same key with other values is refused with a message on the form.
 */
export { FORM_KEY_FIELD };

/**
 * After a successful submit, the page hands out that submission's key again for this long: the back button
 * re-renders the form (the page is not cached), and its second submit must carry the first key to land on the
 * first answer. A deliberate second booking with other values is told so once, then gets a fresh key.
 */
const REUSE_AFTER_SUCCESS_MS = 10 * 60 * 1000;

/** The key a form page renders for this person: the one of their last submit here a moment ago, else a new one. */
export async function formKeyFor(userId: number | undefined, path: string): Promise<string> {
  if (userId === undefined) return randomUUID();
  return (await recentFormKey(userId, path, REUSE_AFTER_SUCCESS_MS)) ?? randomUUID();
}

/** A fresh key, for the re-rendered form after a refusal (that submission kept nothing). */
export const freshFormKey = (): string => randomUUID();

/**
 * Runs a form's one service call under the key from its hidden field. `values` are the parsed values (the key's
 * request is defined by them, not by the order of the fields). Only a redirect (the success) is kept; a refusal is
 * not, so the corrected form goes through with the same key. A form without a key (a page rendered before keys)
 * simply runs.
 */
export async function keyedFormSubmit(
  formData: FormData,
  scope: { userId: number; path: string },
  values: unknown,
  work: () => Promise<Response>,
  options: {
    /**
     * The page's key came back with other values. 'refuse' (the booking: a second booking is told so once);
     * 'run' (the board: the back button's form holds the last key, and writing something else is simply a new
     * post) runs it under a new key.
     */
    otherValues?: 'refuse' | 'run';
  } = {},
): Promise<Response> {
  const raw = formData.get(FORM_KEY_FIELD);
  if (typeof raw !== 'string' || !isValidIdempotencyKey(raw)) return work();
  let reservation;
  try {
    reservation = await reserveIdempotencyKey({ ...scope, method: 'POST', key: raw }, requestHash(JSON.stringify(values)));
  } catch (error) {
    if (error instanceof AppError && error.code === 'IDEMPOTENCY_KEY_REUSED') {
      if (options.otherValues === 'run') {
        const fresh = new FormData();
        fresh.set(FORM_KEY_FIELD, randomUUID());
        return keyedFormSubmit(fresh, scope, values, work);
      }
      throw new AppError('IDEMPOTENCY_KEY_REUSED', { messageKey: 'errors.idempotencyKeyReusedForm' });
    }
    throw error;
  }
  if (reservation.kind === 'replay') {
    const location = reservation.answer.headers.location;
    if (location) return redirect(location, reservation.answer.status);
    return work(); // not a kept redirect (cannot happen: only redirects are kept)
  }
  let answer: Response;
  try {
    answer = await work();
  } catch (error) {
    await releaseIdempotencyKey(reservation.id);
    throw error;
  }
  const location = answer.headers.get('location');
  if (answer.status >= 300 && answer.status < 400 && location) {
    await completeIdempotencyKey(reservation.id, { status: answer.status, body: '', headers: { location } });
  } else {
    await releaseIdempotencyKey(reservation.id);
  }
  return answer;
}
