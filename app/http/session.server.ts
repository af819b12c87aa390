import { createCookie, redirect } from '@remix-run/node';
import { getConfig } from '~/env.server';
import { readAuthorization } from '~/lib/authorization-header';
import { roleHomePath } from '~/lib/roles';
import { AppError } from '~/services/platform/errors.server';
import { getActiveSession, type ActiveSession, type SessionUser } from '~/services/accounts/sessions.server';
import { verifyToken } from '~/services/accounts/tokens.server';
import { noteRequestUser } from './request-context.server';
import type { UserType } from '~/services/accounts/users.server';

/**
 * Who is asking (ARCHITECTURE §5): the web carries a session id in an httpOnly, SameSite=Lax, signed
 * cookie; API clients send `Authorization: Bearer <JWT>`. Both resolve to a row in the sessions table, so
 * revoking that row logs out either kind. Helpers throw a Response (redirect or 403) for route modules.
 */
export const SESSION_COOKIE = '__session';

function sessionCookie() {
  const config = getConfig();
  return createCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    // Secure in production; a local `npm start` on plain http://localhost would otherwise never log in.
    secure: config.NODE_ENV === 'production' && !config.PUBLIC_URL.startsWith('http://'),
    secrets: [config.SESSION_SECRET],
  });
}

/** Set-Cookie for a freshly opened web session (its expiry is the session's; it rolls on use). */
export async function sessionCookieHeader(session: { id: string; expiresAt: Date }): Promise<string> {
  return sessionCookie().serialize(session.id, { expires: session.expiresAt });
}

/**
 * The session id in a `Cookie` header (the signed `__session` cookie), or undefined. Socket.IO handshakes
 * use it: they carry the browser's cookies but are not a Remix request.
 */
export async function parseSessionCookie(cookieHeader: string | null | undefined): Promise<string | undefined> {
  const id = await sessionCookie().parse(cookieHeader ?? null);
  return typeof id === 'string' && id ? id : undefined;
}

export async function clearSessionCookieHeader(): Promise<string> {
  return sessionCookie().serialize('', { maxAge: 0, expires: new Date(0) });
}

const resolved = new WeakMap<Request, Promise<ActiveSession | undefined>>();

async function resolve(request: Request): Promise<ActiveSession | undefined> {
  const authorization = readAuthorization(request.headers.get('authorization'));
  // A header that is there decides alone: a malformed one, or a dead token, is not rescued by the cookie.
  if (authorization.kind === 'invalid') return undefined;
  if (authorization.kind === 'bearer') {
    const payload = verifyToken(authorization.token);
    return payload ? getActiveSession(payload.sid) : undefined;
  }
  const id = await sessionCookie().parse(request.headers.get('cookie'));
  return typeof id === 'string' && id ? getActiveSession(id) : undefined;
}

/**
 * The live session of this request, looked up once per request: with an Authorization header, the bearer token
 * alone (none when the header is not exactly `Bearer <token>`); without one, the cookie.
 */
export function getSession(request: Request): Promise<ActiveSession | undefined> {
  let pending = resolved.get(request);
  if (!pending) {
    // The request's log line names the user found here (server/observability.ts): no second look-up.
    pending = resolve(request).then((session) => {
      if (session) noteRequestUser(request, session.user.id);
      return session;
    });
    resolved.set(request, pending);
  }
  return pending;
}

export async function getUser(request: Request): Promise<SessionUser | undefined> {
  return (await getSession(request))?.user;
}

/** Where each role lands after login (SPEC §2 /login-success). */
export function roleHome(type: UserType | undefined): string {
  return roleHomePath(type);
}

function loginRedirect(request: Request): Response {
  const url = new URL(request.url);
  const params = new URLSearchParams({ redirectTo: url.pathname + url.search });
  return redirect(`/login?${params}`);
}

/** For pages: the logged-in user, or a redirect to /login that comes back here afterwards. */
export async function requireUser(request: Request): Promise<ActiveSession> {
  const session = await getSession(request);
  if (!session) throw loginRedirect(request);
  return session;
}

/** For pages of one role: logged out → /login; another role → the translated 403 page. */
export async function requireRole(request: Request, ...types: UserType[]): Promise<ActiveSession> {
  const session = await requireUser(request);
  if (!types.includes(session.user.type)) throw new Response('Forbidden', { status: 403 });
  return session;
}

/** For /login and /register: someone already logged in goes to their home instead. */
export async function requireAnonymous(request: Request): Promise<void> {
  const session = await getSession(request);
  if (session) throw redirect(roleHome(session.user.type));
}

/** For /api/v1 routes: the session or 401 UNAUTHORIZED. */
export async function requireApiSession(request: Request): Promise<ActiveSession> {
  const session = await getSession(request);
  if (!session) throw new AppError('UNAUTHORIZED');
  return session;
}

/** For /api/v1 routes of one role: 401 when anonymous, 403 FORBIDDEN for another role. */
export async function requireApiRole(request: Request, ...types: UserType[]): Promise<ActiveSession> {
  const session = await requireApiSession(request);
  if (!types.includes(session.user.type)) throw new AppError('FORBIDDEN');
  return session;
}

/**
 * The client's address as Express saw it (server.ts puts req.ip in the load context; trust proxy is
 * loopback only), for rate limits. A client-sent X-Forwarded-For is not believed.
 */
export function clientIp(context: { clientIp?: string } | undefined): string {
  return context?.clientIp ?? 'unknown';
}
