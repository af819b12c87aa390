import { getFormProps } from '@conform-to/react';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Field, OtpField, SubmitButton } from '~/components/forms/form-fields';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { clearSessionCookieHeader, clientIp } from '~/http/session.server';
import { attempt, errorMessage, forwardRetryAfter, parseForm, replyWithError, retryAfterHeaders, reworded } from '~/http/forms.server';
import { redirectWithToast } from '~/http/toast.server';
import { readForm } from '~/http/page.server';
import { pageMeta } from '~/lib/meta';
import { forgotPasswordSchema, resetPasswordSchema } from '~/schemas/account-forms';
import { emailField } from '~/schemas/field-rules';
import { CODE_TTL_MINUTES } from '~/services/accounts/email-codes.server';
import { requestPasswordReset, resetPassword } from '~/services/accounts/password-reset.server';

/**
 * Forgot password, step 2 (issue 7): /reset-password?email=… asks for the mailed code and a new password.
 * The address travels in the URL and a hidden field, so a reload or a post without JS keeps it. On success
 * every session of the account has ended and the person logs in again at /login. A second, small form
 * asks for a new code (intent=resend), with the same answers for every address.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const parsed = emailField.safeParse(new URL(request.url).searchParams.get('email') ?? '');
  if (!parsed.success) throw redirect('/forgot-password');
  const t = await getFixedT(request);
  return { email: parsed.data, ttlMinutes: CODE_TTL_MINUTES, title: t('auth.reset.title') };
}

/** This page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['auth'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const headers = forwardRetryAfter;

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const ip = clientIp(context);

  if (formData.get('intent') === 'resend') {
    const asked = parseForm(formData, forgotPasswordSchema);
    if (!asked.ok) throw redirect('/forgot-password');
    const resent = await attempt(() => requestPasswordReset(asked.value.email, { ip }));
    if (!resent.ok) {
      const { error } = resent;
      return data({ resendError: await errorMessage(request, error) }, { status: error.status, headers: retryAfterHeaders(error) });
    }
    return data({ resent: true as const });
  }

  // The new password is never echoed back into the page.
  const parsed = parseForm(formData, resetPasswordSchema, { hideFields: ['password'] });
  if (!parsed.ok) return parsed.reply;
  const reset = await attempt(() => resetPassword(parsed.value, { ip }));
  if (!reset.ok) {
    const { error } = reset;
    const known = ['INVALID_CODE', 'CODE_EXPIRED', 'RATE_LIMIT_EXCEEDED'].includes(error.code);
    // Shown next to the code field (the form translates the key); code and password start empty again.
    return replyWithError(request, parsed.submission, reworded(error, known ? error.messageKey : 'auth.reset.failed', 'code'), {
      hideFields: ['password', 'code'],
    });
  }
  // Every session of the account has ended, this browser's too: forget its cookie.
  return redirectWithToast(
    '/login',
    { key: 'auth.reset.done', type: 'success' },
    { headers: { 'Set-Cookie': await clearSessionCookieHeader() } },
  );
}

export default function ResetPassword() {
  const { email, ttlMinutes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation();
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  const [form, fields] = useSchemaForm<{ email: string; code: string; password: string }>({
    id: 'reset-password',
    schema: resetPasswordSchema,
    lastResult,
  });
  const busyIntent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : undefined;
  // The server's refusal leaves code and password empty (without JS the page is new anyway): the code is
  // used up or wrong, and a password is never kept.
  const refused = lastResult?.error ? lastResult : undefined;
  useEffect(() => {
    if (!refused) return;
    const input = document.getElementById(fields.password.id);
    if (input instanceof HTMLInputElement) input.value = '';
  }, [refused, fields.password.id]);

  return (
    <div className="auth-page">
      <section className="card auth-card" aria-labelledby="reset-title">
        <h1 id="reset-title">{t('auth.reset.heading')}</h1>
        <p>
          <Trans
            i18nKey="auth.reset.sentTo"
            values={{ email, minutes: ttlMinutes }}
            components={{ email: <strong className="auth-email" /> }}
          />
        </p>
        <Form method="post" className="form" {...getFormProps(form)}>
          <input type="hidden" name="email" value={email} />
          <OtpField field={fields.code} label={t('auth.reset.code')} hint={t('auth.reset.codeHint')} clearOn={refused} />
          <Field
            field={fields.password}
            type="password"
            label={t('auth.reset.password')}
            hint={t('auth.register.passwordHint')}
            autoComplete="new-password"
          />
          <FormErrors form={form} />
          <div className="form-actions">
            <SubmitButton
              name="intent"
              value="reset"
              busy={busyIntent === 'reset'}
              className="button button-large auth-submit"
              label={t('auth.reset.submit')}
              busyLabel={t('auth.reset.submitting')}
            />
          </div>
        </Form>

        <Form method="post" className="form reset-resend">
          <input type="hidden" name="email" value={email} />
          {actionData && 'resent' in actionData ? (
            <p className="form-success" role="status">
              {t('auth.reset.resent')}
            </p>
          ) : null}
          {actionData && 'resendError' in actionData ? <FormErrors form={{ errors: [actionData.resendError], errorId: 'reset-resend-error' }} /> : null}
          <p className="field-hint">{t('auth.reset.noMail')}</p>
          <div className="form-actions">
            <button type="submit" name="intent" value="resend" className="button button-secondary" disabled={busyIntent === 'resend'}>
              {t('auth.reset.resend')}
            </button>
          </div>
        </Form>
        <p className="auth-switch">
          <Link to={`/forgot-password?${new URLSearchParams({ email })}`}>{t('auth.reset.otherEmail')}</Link>
          {' · '}
          <Link to="/login">{t('auth.forgot.backToLogin')}</Link>
        </p>
      </section>
    </div>
  );
}
