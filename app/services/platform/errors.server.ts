import type { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '~/lib/error-codes';
import { parseIdParam } from '~/lib/ids';

/** Typed failures services throw; routes turn them into a status + translated message (ARCHITECTURE §5). */
export { ERROR_STATUS, type ErrorCode };

/** Field-level problems, as i18n keys per field name (translated where the answer is written). */
export type FieldErrorKeys = Record<string, string[]>;

export interface AppErrorOptions {
  /** i18n key of the message; defaults to `errors.codes.<CODE>`. */
  messageKey?: string;
  /** Values interpolated into the message. */
  params?: Record<string, string | number>;
  fieldErrors?: FieldErrorKeys;
  /** Seconds; sent as Retry-After (429). */
  retryAfter?: number;
  /** Facts a client acts on, sent as fields of the error envelope (ALREADY_BOOKED: `orderId`). */
  details?: ErrorDetails;
}

/** The error envelope's extra fields (app/schemas/responses.ts errorEnvelope documents each). */
export interface ErrorDetails {
  orderId?: number;
}

export class AppError extends Error {
  readonly status: number;
  readonly messageKey: string;
  readonly params?: Record<string, string | number>;
  readonly fieldErrors?: FieldErrorKeys;
  readonly retryAfter?: number;
  readonly details?: ErrorDetails;
  constructor(public readonly code: ErrorCode, options: AppErrorOptions = {}) {
    super(code);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
    this.messageKey = options.messageKey ?? `errors.codes.${code}`;
    this.params = options.params;
    this.fieldErrors = options.fieldErrors;
    this.retryAfter = options.retryAfter;
    this.details = options.details;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** The SQLSTATE of a database error, whichever driver raised it (drizzle wraps it in `cause`). */
export function pgErrorCode(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = '23505';

/** Parses with a zod schema, or throws VALIDATION_ERROR whose field errors are i18n keys (API bodies, queries). */
export function parseValue<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fieldErrors: FieldErrorKeys = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length ? issue.path.join('.') : '_form';
    // Our schemas give i18n keys (validation.*, errors.*, or an area's <area>.….errors.*); anything else (a
    // wrong type from an API client) reads as "invalid".
    const key = /^(validation|errors)\.|^[a-z]+(\.[\w-]+)*\.errors\.[\w.-]+$/.test(issue.message) ? issue.message : 'validation.invalid';
    (fieldErrors[field] ??= []).push(key);
  }
  throw new AppError('VALIDATION_ERROR', { fieldErrors });
}

/**
 * An id from a URL segment, or the "not found" error `code`: an id that is not a positive whole number in the
 * column's range ("abc", "1e3", "-1", "99999999999") names nothing, so it never reaches the database.
 */
export function idParamOr(code: ErrorCode, raw: string | number | undefined): number {
  const id = parseIdParam(raw);
  if (id === undefined) throw new AppError(code);
  return id;
}
