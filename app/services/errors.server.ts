/** Typed failures services throw; routes turn them into a status + translated message (ARCHITECTURE §5). */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  GUIDE_NOT_FOUND: 404,
  TIME_CONFLICT: 409,
  ALREADY_REVIEWED: 409,
  EMAIL_TAKEN: 409,
  SERVER_ERROR: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly status: number;
  constructor(public readonly code: ErrorCode, message: string = code) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
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
