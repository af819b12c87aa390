import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form, useNavigation } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { CODE_LENGTH } from '~/components/email-code-form';
import { useHydrated } from '~/components/hydrated';
import { confirmEmailChangeSchema } from '~/schemas/auth';
import { translateMessage } from './types';

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
  const [form, fields] = useForm({
    id: 'email-change',
    lastResult: answer?.result,
    constraint: getZodConstraint(confirmEmailChangeSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: confirmEmailChangeSchema }),
  });
  const busy = navigation.state === 'submitting' ? navigation.formData?.get('intent') : undefined;

  const [remaining, setRemaining] = useState(cooldown);
  useEffect(() => {
    setRemaining(cooldown);
    if (cooldown <= 0) return;
    const started = Date.now();
    const timer = window.setInterval(() => {
      const left = Math.max(0, cooldown - Math.floor((Date.now() - started) / 1000));
      setRemaining(left);
      if (left === 0) window.clearInterval(timer);
    }, 250);
    return () => window.clearInterval(timer);
  }, [cooldown, answer]);

  // A refused code is cleared for the next try (without JS the page comes back empty anyway).
  useEffect(() => {
    if (!answer?.result?.error) return;
    const input = document.getElementById(fields.code.id);
    if (input instanceof HTMLInputElement) input.value = '';
  }, [answer, fields.code.id]);

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
            <input
              {...getInputProps(fields.code, { type: 'text' })}
              key={fields.code.key}
              className="code-single"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              maxLength={CODE_LENGTH}
            />
            <button type="submit" name="intent" value="confirm-email" className="button" disabled={busy === 'confirm-email'}>
              {busy === 'confirm-email' ? t('profile.emailChange.confirming') : t('profile.emailChange.confirm')}
            </button>
          </div>
          {codeErrors ? (
            <p className="field-error" id={fields.code.errorId} role="alert">
              {codeErrors.map((m) => translateMessage(t, m)).join(' ')}
            </p>
          ) : null}
        </div>
        {form.errors ? (
          <p className="form-error" id={form.errorId} role="alert">
            {form.errors.map((m) => translateMessage(t, m)).join(' ')}
          </p>
        ) : null}
      </Form>
      {answer?.resent ? (
        <p className="form-success" role="status">
          {t('profile.emailChange.resent', { email: pendingEmail })}
        </p>
      ) : null}
      {answer?.resendError ? (
        <p className="form-error" role="alert">
          {answer.resendError}
        </p>
      ) : null}
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
