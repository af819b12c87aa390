import { limitLog } from '~/http/request-context.server';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { EmailVerificationForms, type EmailVerificationResult } from '~/components/email-banner';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { clientIp, requireUser } from '~/http/session.server';
import { emailBannerDismissCookie } from '~/lib/email-banner';
import { pageMeta } from '~/lib/meta';
import { safeRedirectPath } from '~/lib/safe-url';
import { redirectWithToast } from '~/http/toast.server';
import { verifyEmail } from '~/services/accounts/accounts.server';
import { sendVerificationCode } from '~/services/accounts/email-codes.server';
import { bannerCodeFormSchema } from '~/schemas/account-forms';
import { attempt, forwardRetryAfter, parseForm, retryAfterHeaders } from '~/http/forms.server';
import { invariantResponse, readForm } from '~/http/page.server';

/**
 * The email banner's forms post here (SPEC §2 Email banner, §8 Email banner): intent=send mails a code to
 * the logged-in person's own address, intent=verify checks one, intent=dismiss hides the banner for the
 * browser session. Success goes back to the page the banner was on; with JS the banner's fetcher shows
 * the other answers in place, without JS this page shows them with the same forms.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const t = await getFixedT(request);
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get('redirectTo'), '/');
  return { verified: user.isEmailVerified, redirectTo, title: t('auth.banner.pageTitle') };
}

/** This page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['auth'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

/** A 429 keeps its Retry-After on the page too. */
export const headers = forwardRetryAfter;

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  const formData = await readForm(request);
  const intent = formData.get('intent');
  const redirectTo = safeRedirectPath(formData.get('redirectTo'), '/');
  const t = await getFixedT(request);

  if (intent === 'dismiss') {
    return redirect(redirectTo, { headers: { 'Set-Cookie': emailBannerDismissCookie } });
  }
  if (user.isEmailVerified) {
    return redirectWithToast(redirectTo, { key: 'errors.codes.ALREADY_VERIFIED', type: 'info' });
  }

  if (intent === 'send') {
    const sent = await attempt(() => sendVerificationCode(user));
    if (!sent.ok) {
      const { error } = sent;
      const message = error.code === 'RESEND_COOLDOWN' ? t(error.messageKey, error.params) : t('auth.banner.sendFailed');
      return data<EmailVerificationResult>({ intent: 'send', sendError: message, redirectTo }, { status: error.status, headers: retryAfterHeaders(error) });
    }
    return data<EmailVerificationResult>({ intent: 'send', sent: true, email: user.email, redirectTo });
  }

  if (intent === 'verify') {
    const parsed = parseForm(formData, bannerCodeFormSchema);
    if (!parsed.ok) {
      const key = parsed.fieldErrors.code?.[0] ?? 'auth.banner.codeRequired';
      return data<EmailVerificationResult>({ intent: 'verify', codeError: t(key), redirectTo }, { status: 400 });
    }
    // Only the logged-in person's own address; no session is opened (they are logged in already).
    const verified = await attempt(() => verifyEmail({ email: user.email, code: parsed.value.code }, undefined, { ip: clientIp(context), limits: limitLog(request) }));
    if (!verified.ok) {
      const { error } = verified;
      const known = ['INVALID_CODE', 'CODE_EXPIRED', 'RATE_LIMIT_EXCEEDED'].includes(error.code);
      return data<EmailVerificationResult>(
        { intent: 'verify', codeError: known ? t(error.messageKey, error.params) : t('auth.banner.verifyFailed'), redirectTo },
        { status: error.status, headers: retryAfterHeaders(error) },
      );
    }
    return redirectWithToast(redirectTo, { key: 'auth.banner.verified', type: 'success' });
  }

  // Neither button of this page: a form it does not know.
  invariantResponse(false, 'Bad Request', { status: 400 });
}

export default function EmailVerification() {
  const loaderData = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const redirectTo = result?.redirectTo ?? loaderData.redirectTo;
  const verified = loaderData.verified;
  const { t } = useTranslation();
  return (
    <section className="auth-page" aria-labelledby="email-verification-title">
      <div className="card auth-card">
        <h1 id="email-verification-title">{t('auth.banner.pageTitle')}</h1>
        {verified ? (
          <p>{t('auth.banner.alreadyVerified')}</p>
        ) : (
          <>
            <p>{t('auth.banner.text')}</p>
            <EmailVerificationForms FormComponent={Form} result={result} redirectTo={redirectTo} idPrefix="email-page" />
          </>
        )}
        <p>
          <Link to={redirectTo}>{t('auth.banner.back')}</Link>
        </p>
      </div>
    </section>
  );
}
