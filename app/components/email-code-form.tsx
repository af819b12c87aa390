import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form, Link, useNavigation } from '@remix-run/react';
import { Trans, useTranslation } from 'react-i18next';
import { emailCodeFormSchema, resendVerificationSchema } from '~/schemas/account-forms';
import { OtpField } from '~/components/forms/form-fields';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { useHydrated } from './hydrated';
import { useCountdown } from './use-countdown';

/** What a page's loader or action hands to the view. */
export interface EmailCodeViewData {
  email: string;
  /** Seconds until another code may be sent, as of this response. */
  cooldown: number;
  ttlMinutes?: number;
  result?: SubmissionResult<string[]> | null;
  resent?: boolean;
}

/**
 * The code-entry view (SPEC §2 Email verification form), shared by /register/verify and /login: the form
 * kit's OTP input (one 6-digit field without JS, six boxes with it) posting `code`. Verify and resend are
 * two buttons of one form (intent=verify | resend).
 */
export function EmailCodeForm({
  data,
  hidden = {},
  notice,
  back,
}: {
  data: EmailCodeViewData;
  /** Extra hidden fields posted with both buttons (e.g. redirectTo). */
  hidden?: Record<string, string>;
  /** A line above the form, e.g. why the login switched to this view. */
  notice?: string;
  /** Where the back link goes (default: back to sign-up, for the registration flow). */
  back?: { to: string; label: string };
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const lastResult = data.result ?? undefined;
  const [form, fields] = useSchemaForm<{ email: string; code: string; intent: string }>({
    id: 'email-code',
    schema: emailCodeFormSchema,
    lastResult,
    validate: (formData) => (formData.get('intent') === 'resend' ? resendVerificationSchema : emailCodeFormSchema),
  });
  // A wrong code clears the boxes and puts the cursor back in the first (SPEC §4 Email verification).
  const refusedIntent = (lastResult?.initialValue as Record<string, unknown> | undefined)?.intent;
  const clearCode = lastResult?.error && refusedIntent !== 'resend' ? lastResult : undefined;
  // Resend cooldown: a live countdown with JS (the server refuses early resends either way).
  const remaining = useCountdown(data.cooldown, lastResult);

  const submittingIntent = navigation.state !== 'idle' ? navigation.formData?.get('intent') : undefined;
  const succeeded = navigation.state === 'loading' && submittingIntent === 'verify' && navigation.location.pathname === '/login-success';
  const resent = data.resent && !lastResult?.error;

  return (
    <section className="card auth-card" aria-labelledby="email-code-title">
      <h1 id="email-code-title">{t('auth.code.title')}</h1>
      {notice ? <p className="auth-notice">{notice}</p> : null}
      <p>
        <Trans
          i18nKey="auth.code.sentTo"
          values={{ email: data.email, minutes: data.ttlMinutes ?? 15 }}
          components={{ email: <strong className="auth-email" /> }}
        />
      </p>
      <Form method="post" className="form" {...getFormProps(form)}>
        <input type="hidden" name="email" value={data.email} />
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <OtpField boxes field={fields.code} label={t('auth.code.label')} hint={t('auth.code.hint')} clearOn={clearCode} />
        <FormErrors form={form} />
        {resent ? (
          <p className="form-success" role="status">
            {t('auth.code.resent')}
          </p>
        ) : null}
        {succeeded ? (
          <p className="form-success" role="status">
            {t('auth.code.success')}
          </p>
        ) : null}
        <div className="form-actions">
          <button type="submit" name="intent" value="verify" className="button">
            {submittingIntent === 'verify' ? t('auth.code.verifying') : t('auth.code.verify')}
          </button>
          <button
            type="submit"
            name="intent"
            value="resend"
            className="button button-secondary"
            disabled={hydrated && remaining > 0}
          >
            {/* The countdown is live only with JS; without it the line below says how long to wait. */}
            {hydrated && remaining > 0 ? t('auth.code.resendIn', { seconds: remaining }) : t('auth.code.resend')}
          </button>
        </div>
        {remaining > 0 ? <p className="field-hint nojs-only">{t('auth.code.cooldown', { seconds: remaining })}</p> : null}
        <p>
          <Link to={back?.to ?? '/register'}>{back?.label ?? t('auth.code.backToRegister')}</Link>
        </p>
      </Form>
    </section>
  );
}
