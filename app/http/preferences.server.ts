import { createCookie } from '@remix-run/node';
import { isTheme, type Theme } from '~/lib/theme';

const ONE_YEAR = 60 * 60 * 24 * 365;

/** Readable by the inline script too (not httpOnly), so the first paint already has the right theme. */
export const themeCookie = createCookie('theme', { path: '/', sameSite: 'lax', maxAge: ONE_YEAR, httpOnly: false });

export async function getTheme(request: Request): Promise<Theme> {
  const value = await themeCookie.parse(request.headers.get('cookie'));
  return isTheme(value) ? value : 'auto';
}
