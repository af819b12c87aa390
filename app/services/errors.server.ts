/** Typed failures services throw; routes turn them into a status + translated message (ARCHITECTURE §5). */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_CODE: 400,
  CODE_EXPIRED: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  EMAIL_NOT_VERIFIED: 403,
  VERIFICATION_REQUIRED: 403,
  ACCOUNT_BLOCKED: 403,
  NOT_FOUND: 404,
  GUIDE_NOT_FOUND: 404,
  TRAVELER_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  TIME_CONFLICT: 409,
  ALREADY_REVIEWED: 409,
  EMAIL_TAKEN: 409,
  ALREADY_VERIFIED: 409,
  FILE_TOO_LARGE: 413,
  INVALID_FILE_TYPE: 415,
  RATE_LIMIT_EXCEEDED: 429,
  RESEND_COOLDOWN: 429,
  SERVER_ERROR: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

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
}

export class AppError extends Error {
  readonly status: number;
  readonly messageKey: string;
  readonly params?: Record<string, string | number>;
  readonly fieldErrors?: FieldErrorKeys;
  readonly retryAfter?: number;
  constructor(public readonly code: ErrorCode, options: AppErrorOptions = {}) {
    super(code);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
    this.messageKey = options.messageKey ?? `errors.codes.${code}`;
    this.params = options.params;
    this.fieldErrors = options.fieldErrors;
    this.retryAfter = options.retryAfter;
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
