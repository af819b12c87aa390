import { AsyncLocalStorage } from 'node:async_hooks';
import { parseWithZod } from '@conform-to/zod/v4';
import { data } from '@remix-run/node';
import { Authenticator } from 'remix-auth';
import { FormStrategy } from 'remix-auth-form';
import { getFixedT } from '~/i18n/i18n.server';
import { clientIp, sessionCookieHeader } from './session.server';
import { replyWithError } from './forms.server';
import { safeRedirectPath } from '~/lib/safe-url';
import { redirectWithToast } from './toast.server';
import { emailCodeFormSchema, loginSchema, resendVerificationSchema } from '~/schemas/account-forms';
import { login, resendVerification, verifyEmail, type LoginResult, type RequestMeta } from '~/services/accounts/accounts.server';
import { CODE_TTL_MINUTES, resendCooldownSeconds } from '~/services/accounts/email-codes.server';
import { AppError } from '~/services/platform/errors.server';
import { findUserByEmail } from '~/services/accounts/users.server';

/**
 * Web login (remix-auth with the form strategy) and the code-entry steps shared by /register/verify and
 * /login. The services decide everything (rate limits, verification, sessions); this module, part of the
 * HTTP boundary, only wires them to form posts and answers the way the pages expect (data, redirects, cookies).
 */

/** Request facts the strategy needs but remix-auth does not pass along (it copies the Request). */
const requestMeta = new AsyncLocalStorage<RequestMeta>();

export const authenticator = new Authenticator<LoginResult>();

authenticator.use(
  new FormStrategy<LoginResult>(async ({ form }) => {
    const meta = requestMeta.getStore();
    if (!meta) throw new Error('authenticator: call authenticateLogin(), not authenticator.authenticate()');
    const submission = parseWithZod(form, { schema: loginSchema });
    if (submission.status !== 'success') throw new AppError('VALIDATION_ERROR');
    // Errors (INVALID_CREDENTIALS, EMAIL_NOT_VERIFIED, RATE_LIMIT_EXCEEDED ...) propagate to the caller.
    return login(submission.value, 'web', meta);
  }),
  'form',
);

/** Password login for the web: a new 'web' session, or the service's AppError. */
export function authenticateLogin(request: Request, meta: RequestMeta): Promise<LoginResult> {
  return requestMeta.run(meta, () => authenticator.authenticate('form', request));
}

/** Seconds until another code may be mailed to this address (0 for unknown or verified addresses). */
export async function codeCooldown(email: string): Promise<number> {
  const user = await findUserByEmail(email);
  if (!user || user.isEmailVerified) return 0;
  return resendCooldownSeconds(user.id);
}

/** Where a fresh login goes: /login-success, carrying a same-site redirectTo when there is one. */
export function loginSuccessUrl(redirectTo: unknown): string {
  const target = safeRedirectPath(redirectTo, '');
  return target ? `/login-success?${new URLSearchParams({ redirectTo: target })}` : '/login-success';
}

/**
 * The code-entry view's two buttons (intent=verify | intent=resend), for any page that shows it. Answers
 * the view's data (email, cooldown, conform result), or on a correct code logs the person in (new web
 * session cookie) and redirects to /login-success.
 */
export async function emailCodeAction(request: Request, context: { clientIp?: string }, formData: FormData) {
  const ip = clientIp(context);
  const view = async (email: string) => ({
    view: 'verify' as const,
    email,
    cooldown: email ? await codeCooldown(email) : 0,
    ttlMinutes: CODE_TTL_MINUTES,
  });
  const rawEmail = String(formData.get('email') ?? '');

  if (formData.get('intent') === 'resend') {
    const submission = parseWithZod(formData, { schema: resendVerificationSchema });
    if (submission.status !== 'success') {
      return data({ result: submission.reply(), ...(await view(rawEmail)) }, { status: 400 });
    }
    const email = submission.value.email;
    try {
      await resendVerification(email, { ip });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // The cooldown (and "already verified") explain themselves; anything else is the form's own wording.
      const shown =
        error.code === 'RESEND_COOLDOWN' || error.code === 'ALREADY_VERIFIED'
          ? error
          : new AppError(error.code, { messageKey: 'auth.code.resendFailed', retryAfter: error.retryAfter });
      return replyWithError(request, submission, shown, { hideFields: ['code'], extra: await view(email) });
    }
    return data({ result: submission.reply({ hideFields: ['code'] }), resent: true, ...(await view(email)) });
  }

  const submission = parseWithZod(formData, { schema: emailCodeFormSchema });
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: ['code'] }), ...(await view(rawEmail)) }, { status: 400 });
  }
  let session: { id: string; expiresAt: Date };
  try {
    const { login: opened } = await verifyEmail(submission.value, 'web', { ip });
    if (!opened) throw new AppError('SERVER_ERROR');
    session = opened.session;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const email = submission.value.email;
    const known = ['INVALID_CODE', 'CODE_EXPIRED', 'ALREADY_VERIFIED', 'RATE_LIMIT_EXCEEDED'].includes(error.code);
    const messageKey = known ? error.messageKey : 'auth.code.failed';
    // Shown next to the code boxes (the form translates the key).
    const shown = new AppError(error.code, { messageKey, fieldErrors: { code: [messageKey] }, retryAfter: error.retryAfter });
    return replyWithError(request, submission, shown, { hideFields: ['code'], extra: await view(email) });
  }
  return redirectWithToast(
    loginSuccessUrl(formData.get('redirectTo')),
    { key: 'auth.code.success', type: 'success' },
    { headers: { 'Set-Cookie': await sessionCookieHeader(session) } },
  );
}

/** The login page's message for a rate-limited attempt (SPEC §8), with 429 and Retry-After. */
export async function rateLimitedMessage(request: Request): Promise<string> {
  const t = await getFixedT(request);
  return t('auth.login.rateLimited');
}
