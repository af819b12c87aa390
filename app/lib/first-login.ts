/**
 * "Welcome" or "welcome back" on /login-success (issue 7): an account's first login is marked in the URL
 * with ?first=1 by whichever action logged it in, from what it read before the login stamped last_login
 * (an account that has never logged in has none).
 */
export const FIRST_LOGIN_PARAM = 'first';

export function withFirstLoginFlag(url: string, first: boolean): string {
  if (!first) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${FIRST_LOGIN_PARAM}=1`;
}

/** The same flag on an action's answer, when that answer is the redirect to /login-success. */
export function markFirstLogin<T>(answer: T, first: boolean): T {
  if (!first || !(answer instanceof Response)) return answer;
  const location = answer.headers.get('Location');
  if (!location?.startsWith('/login-success')) return answer;
  const headers = new Headers(answer.headers);
  headers.set('Location', withFirstLoginFlag(location, true));
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers }) as T;
}

export function isFirstLogin(url: URL): boolean {
  return url.searchParams.get(FIRST_LOGIN_PARAM) === '1';
}
