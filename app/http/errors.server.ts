import { describeError, logError } from '~/services/platform/log.server';
import { requestIdOf } from './request-context.server';

/**
 * Logging a failure without what the client sent, through the one safe logger (app/services/platform/log.server.ts): drizzle's
 * query errors put every parameter into their message ("params: name,email,$argon2id$…"), and a password hash, a
 * code or a token must never reach a log.
 */
export { describeError };

export function logServerError(error: unknown, request?: Request): void {
  const where = request ? `${request.method} ${new URL(request.url).pathname}` : 'server';
  logError(`${where} failed`, error, { requestId: request ? requestIdOf(request) : undefined });
}
