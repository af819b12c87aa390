import { sql } from 'drizzle-orm';
import { getDb } from '~db/client';
import { getConfig, type AppConfig } from '~/env.server';
import { isLargeSaveAnswer, jsonBytes, SAVE_ANSWER_WARN_BYTES } from '~/lib/save-answer';
import { getSession, requireUser } from '~/http/session.server';
import type { ActiveSession } from '~/services/accounts/sessions.server';
import { AppError } from '~/services/platform/errors.server';
import { logError } from '~/services/platform/log.server';

/**
 * The one guard of the debug pages (SPEC §2: /dev/users, /connection-test, ...). In production only
 * administrators reach them; everyone else, logged in or not, gets a plain 404 so the pages' existence is
 * not revealed. In development (and tests) anyone logged in may use them; visitors are sent to log in.
 * `mode` defaults to the configured NODE_ENV; tests pass it to exercise both.
 */
export async function requireDebugAccess(
  request: Request,
  mode: AppConfig['NODE_ENV'] = getConfig().NODE_ENV,
): Promise<ActiveSession> {
  if (mode === 'production') {
    const session = await getSession(request);
    if (session?.user.type !== 'admin') throw new Response('Not Found', { status: 404 });
    return session;
  }
  return requireUser(request);
}

/**
 * The same rule for the debug API calls (/api/dev/users): in production a 404 NOT_FOUND envelope for everyone
 * but an admin (a visitor too, so the calls' existence is not revealed); elsewhere nothing here (the contract's
 * `auth` decides: 401 for a visitor). docs/decisions/030-debug-routes.md.
 */
export async function requireDebugApiAccess(request: Request, mode: AppConfig['NODE_ENV'] = getConfig().NODE_ENV): Promise<void> {
  if (mode !== 'production') return;
  const session = await getSession(request);
  if (session?.user.type !== 'admin') throw new AppError('NOT_FOUND');
}

/** The same database round trip /api/ping makes, timed, for the connection test page without JS. */
export async function checkDatabase(): Promise<{ ok: boolean; ms: number }> {
  const started = performance.now();
  try {
    await getDb().execute(sql`select 1`);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    logError('connection test: database unreachable', error);
    return { ok: false, ms: Math.round(performance.now() - started) };
  }
}

/**
 * The availability page's debug panel (issue 10, SPEC §2): for admins anywhere, and for everyone allowed on the
 * page when the server runs in development. `mode` defaults to the configured NODE_ENV.
 */
export function showsDebugPanel(user: { type: string }, mode: AppConfig['NODE_ENV'] = getConfig().NODE_ENV): boolean {
  return user.type === 'admin' || mode === 'development';
}

/** SPEC §8 Slots: a save answer over 10,000 bytes is worth a warning (the calendar answers the whole window). */
export function warnIfLargeSaveAnswer(answer: unknown, where: string): number {
  const bytes = jsonBytes(answer);
  if (isLargeSaveAnswer(bytes)) console.warn(`${where}: availability save answer is ${bytes} bytes (over ${SAVE_ANSWER_WARN_BYTES})`);
  return bytes;
}
