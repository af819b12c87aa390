import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form, useNavigation } from '@remix-run/react';
import { Trans, useTranslation } from 'react-i18next';
import { ErrorList, FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { useHydrated } from '~/components/hydrated';
import { OtpInput } from '~/components/forms/otp-input';
import { useCountdown } from '~/components/use-countdown';
import { confirmEmailChangeSchema } from '~/schemas/account-forms';

/** What /me's action answers to this card's forms. */
export interface PendingEmailResult {
  emailForm: true;
  result?: SubmissionResult<string[]> | null;
  resent?: boolean;
  resendError?: string;
}

/**
 * A new email address waiting for its code (issue 7): the old address stays the login until the code mailed
 * to the new one is entered here. Three plain POST forms (intent=confirm-email | resend-email-code |
 * cancel-email), so it all works without JS; with JS the resend button counts down its wait.
 */
export function PendingEmailCard({
  email,
  pendingEmail,
  cooldown,
  answer,
}: {
  email: string;
  pendingEmail: string;
  /** Seconds until another code may be sent, as of this response. */
  cooldown: number;
  answer?: PendingEmailResult;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [form, fields] = useSchemaForm<{ code: string }>({
    id: 'email-change',
    schema: confirmEmailChangeSchema,
    lastResult: answer?.result,
  });
  const busy = navigation.state === 'submitting' ? navigation.formData?.get('intent') : undefined;
  const remaining = useCountdown(cooldown, answer);
  // A refused code is cleared for the next try (without JS the page comes back empty anyway).
  const refused = answer?.result?.error ? answer.result : undefined;

  const codeErrors = fields.code.errors;
  return (
    <section className="card pending-email-card" aria-labelledby="pending-email-title">
      <h2 id="pending-email-title">{t('profile.emailChange.title')}</h2>
      <p>
        <Trans
          i18nKey="profile.emailChange.pending"
          values={{ pending: pendingEmail, email }}
          components={{ pending: <strong className="pending-email-address" />, current: <strong className="pending-email-address" /> }}
        />
      </p>
      <Form method="post" className="form pending-email-form" {...getFormProps(form)}>
        <div className="field">
          <label htmlFor={fields.code.id}>{t('profile.emailChange.codeLabel')}</label>
          <div className="pending-email-row">
            <OtpInput
              id={fields.code.id}
              name={fields.code.name}
              defaultValue={fields.code.initialValue}
              invalid={codeErrors ? true : undefined}
              describedBy={codeErrors ? fields.code.errorId : undefined}
              clearOn={refused}
            />
            <button type="submit" name="intent" value="confirm-email" className="button" disabled={busy === 'confirm-email'}>
              {busy === 'confirm-email' ? t('profile.emailChange.confirming') : t('profile.emailChange.confirm')}
            </button>
          </div>
          <ErrorList id={fields.code.errorId} errors={codeErrors} alert />
        </div>
        <FormErrors form={form} />
      </Form>
      {answer?.resent ? (
        <p className="form-success" role="status">
          {t('profile.emailChange.resent', { email: pendingEmail })}
        </p>
      ) : null}
      {answer?.resendError ? <FormErrors form={{ errors: [answer.resendError], errorId: 'email-change-resend-error' }} /> : null}
      <div className="pending-email-actions">
        <Form method="post">
          <button
            type="submit"
            name="intent"
            value="resend-email-code"
            className="button button-secondary button-small"
            disabled={hydrated && remaining > 0}
          >
            {hydrated && remaining > 0 ? t('profile.emailChange.resendIn', { seconds: remaining }) : t('profile.emailChange.resend')}
          </button>
        </Form>
        <Form method="post">
          <button type="submit" name="intent" value="cancel-email" className="button button-secondary button-small">
            {t('profile.emailChange.cancel')}
          </button>
        </Form>
      </div>
      {remaining > 0 ? <p className="field-hint nojs-only">{t('profile.emailChange.cooldown', { seconds: remaining })}</p> : null}
    </section>
  );
}
