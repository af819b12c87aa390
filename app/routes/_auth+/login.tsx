import { limitLog } from '~/http/request-context.server';
import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Trans, useTranslation } from 'react-i18next';
import { EmailCodeForm } from '~/components/email-code-form';
import { Field, Honeypot, SubmitButton } from '~/components/forms/form-fields';
import { ErrorList, FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT, getLocale } from '~/i18n/i18n.server';
import { clientIp, getSession, requireAnonymous, sessionCookieHeader } from '~/http/session.server';
import { attempt, forwardRetryAfter, parseForm, replyWithError } from '~/http/forms.server';
import { markFirstLogin, withFirstLoginFlag } from '~/lib/first-login';
import { pageMeta } from '~/lib/meta';
import { safeRedirectPath } from '~/lib/safe-url';
import { loginSchema } from '~/schemas/account-forms';
import { authenticateLogin, codeCooldown, emailCodeAction, loginSuccessUrl } from '~/http/authenticator.server';
import { readForm } from '~/http/page.server';
import { CODE_TTL_MINUTES } from '~/services/accounts/email-codes.server';
import { AppError } from '~/services/platform/errors.server';
import { revokeSession } from '~/services/accounts/sessions.server';
import { findUserByEmail } from '~/services/accounts/users.server';

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get('redirectTo'), '');
  const t = await getFixedT(request);
  return { redirectTo, title: t('auth.login.title') };
}

/** This page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['auth'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

/** A 429 keeps its Retry-After on the page too. */
export const headers = forwardRetryAfter;

/**
 * Password login through remix-auth's form strategy (SPEC §2 Login page, §8 Login). An unverified account
 * switches this page to the code-entry view; its two buttons post back here (intent=verify | resend).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request.clone());
  const intent = formData.get('intent');
  if (intent === 'verify' || intent === 'resend') {
    // An unverified account's code login is its first (travelers and guides cannot log in before).
    const before = intent === 'verify' ? await findUserByEmail(String(formData.get('email') ?? '')) : undefined;
    return markFirstLogin(await emailCodeAction(request, context, formData), Boolean(before && before.lastLogin === null));
  }

  const parsed = parseForm(formData, loginSchema, { hideFields: ['password'] });
  if (!parsed.ok) return parsed.reply;
  const email = parsed.value.email;
  // Read before the login stamps last_login: an account that never logged in gets "welcome", not "welcome back".
  const before = await findUserByEmail(email);
  const login = await attempt(async () => authenticateLogin(request, { ip: clientIp(context), limits: limitLog(request), locale: await getLocale(request) }));
  if (login.ok) {
    const { session, user } = login.value;
    // A new session id at every login: whatever session this browser had before ends here.
    const previous = await getSession(request);
    if (previous) await revokeSession(previous.id);
    const firstLogin = before?.id === user.id && before.lastLogin === null;
    return redirect(withFirstLoginFlag(loginSuccessUrl(parsed.value.redirectTo), firstLogin), {
      headers: { 'Set-Cookie': await sessionCookieHeader(session) },
    });
  }
  const { error } = login;
  if (error.code === 'EMAIL_NOT_VERIFIED') {
    // The service has mailed a code when the last one is no longer usable.
    return data({
      view: 'verify' as const,
      email,
      cooldown: await codeCooldown(email),
      ttlMinutes: CODE_TTL_MINUTES,
      result: null,
    });
  }
  if (error.code === 'RATE_LIMIT_EXCEEDED') {
    const shown = new AppError('RATE_LIMIT_EXCEEDED', { messageKey: 'auth.login.rateLimited', retryAfter: error.retryAfter ?? 60 });
    return replyWithError(request, parsed.submission, shown, { hideFields: ['password'] });
  }
  // Wrong email or password keep one message; anything else is the generic login failure.
  const shown = error.code === 'INVALID_CREDENTIALS' || error.code === 'ACCOUNT_BLOCKED' ? error : new AppError(error.code, { messageKey: 'auth.login.failed' });
  return replyWithError(request, parsed.submission, shown, { hideFields: ['password'] });
}

export default function Login() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation();

  if (actionData && 'view' in actionData && actionData.view === 'verify') {
    return (
      <div className="auth-page">
        <EmailCodeForm
          data={actionData}
          hidden={redirectTo ? { redirectTo } : undefined}
          notice={t('auth.login.unverified')}
          back={{ to: '/login', label: t('auth.code.backToLogin') }}
        />
      </div>
    );
  }
  return <LoginForm redirectTo={redirectTo} result={actionData && 'result' in actionData ? actionData.result : undefined} />;
}

function LoginForm({ redirectTo, result }: { redirectTo: string; result?: SubmissionResult<string[]> | null }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useSchemaForm<{ email: string; password: string; redirectTo: string; website: string }>({
    id: 'login',
    schema: loginSchema,
    lastResult: result,
  });
  const submitting = navigation.state === 'submitting' && navigation.formAction?.startsWith('/login');
  // Both fields share one message ('請填寫所有必填欄位'), so it is shown once, above the button.
  const fieldMessages = [...new Set([...(fields.email.errors ?? []), ...(fields.password.errors ?? [])])];
  const sharedErrors = `${form.id}-field-errors`;

  return (
    <div className="auth-page">
      <section className="card auth-card" aria-labelledby="login-title">
        <h1 id="login-title">{t('auth.login.heading')}</h1>
        <Form method="post" className="form" {...getFormProps(form)}>
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <Field
            field={fields.email}
            type="email"
            label={t('auth.login.email')}
            errorsAt={sharedErrors}
            autoComplete="username"
          />
          <Field
            field={fields.password}
            type="password"
            label={t('auth.login.password')}
            errorsAt={sharedErrors}
            autoComplete="current-password"
          />
          <p className="auth-forgot">
            <Link to="/forgot-password">{t('auth.login.forgotPassword')}</Link>
          </p>
          <Honeypot field={fields.website} refusal={t('auth.login.failed')} />
          <ErrorList id={sharedErrors} errors={fieldMessages} alert />
          <FormErrors form={form} />
          <div className="form-actions">
            <SubmitButton
              busy={submitting}
              className="button button-large auth-submit"
              label={t('auth.login.submit')}
              busyLabel={t('auth.login.submitting')}
            />
          </div>
        </Form>
        <p className="auth-switch">
          {t('auth.login.noAccount')} <Link to={redirectTo ? `/register?${new URLSearchParams({ redirectTo })}` : '/register'}>{t('auth.login.registerLink')}</Link>
        </p>
        <p className="small muted auth-legal">
          <Trans
            i18nKey="auth.login.legal"
            components={{ terms: <Link to="/terms" />, privacy: <Link to="/privacy-policy" /> }}
          />
        </p>
        <p>
          <Link to="/" className="button button-secondary">
            {t('auth.login.backHome')}
          </Link>
        </p>
      </section>
    </div>
  );
}
