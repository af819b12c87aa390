import { createCookie, redirect } from '@remix-run/node';
import { getConfig } from '~/env.server';

/**
 * One-shot messages that survive a redirect (ARCHITECTURE §8 `redirectWithToast`), so a no-JS form post
 * that redirects still tells the person what happened. The cookie holds an i18n key (and parameters); the
 * root loader reads it once, clears it, and the layout shows it translated.
 */
export interface Toast {
  key: string;
  params?: Record<string, string | number>;
  type?: 'success' | 'error' | 'info';
}

const toastCookie = () =>
  createCookie('toast', { path: '/', httpOnly: true, sameSite: 'lax', maxAge: 60, secrets: [getConfig().SESSION_SECRET] });

export async function toastHeader(toast: Toast): Promise<string> {
  return toastCookie().serialize(toast);
}

export async function redirectWithToast(url: string, toast: Toast, init: { headers?: HeadersInit } = {}) {
  const headers = new Headers(init.headers);
  headers.append('Set-Cookie', await toastHeader(toast));
  return redirect(url, { headers });
}

/** The pending toast, and the header that clears it (undefined when there is none). */
export async function takeToast(request: Request): Promise<{ toast?: Toast; clear?: string }> {
  const value = (await toastCookie().parse(request.headers.get('cookie'))) as Toast | null;
  if (!value || typeof value.key !== 'string') return {};
  return { toast: value, clear: await toastCookie().serialize('', { maxAge: 0 }) };
}
