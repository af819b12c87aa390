import { getFormProps, useForm, type Submission, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { emailCodeFormSchema, resendVerificationSchema } from '~/schemas/auth';
import { useHydrated } from './hydrated';

export const CODE_LENGTH = 6;

/** What a page's loader or action hands to the view. */
export interface EmailCodeViewData {
  email: string;
  /** Seconds until another code may be sent, as of this response. */
  cooldown: number;
  ttlMinutes?: number;
  result?: SubmissionResult<string[]> | null;
  resent?: boolean;
}

const emptyDigits = () => Array.from({ length: CODE_LENGTH }, () => '');
const toDigits = (value: unknown) => {
  const chars = (typeof value === 'string' ? value.replace(/\D/g, '') : '').slice(0, CODE_LENGTH).split('');
  return emptyDigits().map((_, i) => chars[i] ?? '');
};

/**
 * The code-entry view (SPEC §2 Email verification form), shared by /register/verify and /login.
 * Server-rendered as one 6-digit input named `code`, so it works without JS; after hydration it becomes
 * six single-digit boxes (auto-advance, backspace goes back, paste of a whole code) that post the same
 * `code`. Verify and resend are two buttons of one form (intent=verify | resend).
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
  const [form, fields] = useForm<{ email: string; code: string; intent: string }>({
    id: 'email-code',
    lastResult,
    shouldValidate: 'onSubmit',
    onValidate({ formData }) {
      const schema = formData.get('intent') === 'resend' ? resendVerificationSchema : emailCodeFormSchema;
      return parseWithZod(formData, { schema }) as unknown as Submission<{ email: string; code: string; intent: string }>;
    },
  });

  const [digits, setDigits] = useState<string[]>(() => toDigits(fields.code.initialValue));
  const boxes = useRef<Array<HTMLInputElement | null>>([]);
  const focusBox = (index: number) => {
    const box = boxes.current[Math.max(0, Math.min(CODE_LENGTH - 1, index))];
    box?.focus();
    box?.select();
  };

  // A wrong code clears the boxes and puts the cursor back in the first (SPEC §4 Email verification).
  useEffect(() => {
    if (!lastResult?.error) return;
    const intent = (lastResult.initialValue as Record<string, unknown> | undefined)?.intent;
    if (intent === 'resend') return;
    setDigits(emptyDigits());
    boxes.current[0]?.focus();
  }, [lastResult]);

  // Resend cooldown: a live countdown with JS (the server refuses early resends either way).
  const [remaining, setRemaining] = useState(data.cooldown);
  useEffect(() => {
    setRemaining(data.cooldown);
    if (data.cooldown <= 0) return;
    const started = Date.now();
    const timer = window.setInterval(() => {
      const left = Math.max(0, data.cooldown - Math.floor((Date.now() - started) / 1000));
      setRemaining(left);
      if (left === 0) window.clearInterval(timer);
    }, 250);
    return () => window.clearInterval(timer);
  }, [data.cooldown, lastResult]);

  const fill = (start: number, text: string) => {
    const chars = text.replace(/\D/g, '').split('');
    if (chars.length === 0) return;
    setDigits((current) => {
      const next = [...current];
      chars.forEach((c, i) => {
        if (start + i < CODE_LENGTH) next[start + i] = c;
      });
      return next;
    });
    focusBox(start + chars.length);
  };

  const onChange = (index: number, value: string) => {
    const clean = value.replace(/\D/g, '');
    if (clean.length === CODE_LENGTH) return fill(0, clean); // autofill of a whole one-time code
    if (clean.length === 0) {
      setDigits((current) => current.map((d, i) => (i === index ? '' : d)));
      return;
    }
    fill(index, clean.length > 1 ? clean.slice(-1) : clean);
  };

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && !digits[index] && index > 0) {
      event.preventDefault();
      setDigits((current) => current.map((d, i) => (i === index - 1 ? '' : d)));
      focusBox(index - 1);
    } else if (event.key === 'ArrowLeft' && index > 0) {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowRight' && index < CODE_LENGTH - 1) {
      event.preventDefault();
      focusBox(index + 1);
    }
  };

  // Paste accepts exactly six digits (SPEC §5); anything else is ignored.
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const text = event.clipboardData.getData('text').trim();
    if (/^\d{6}$/.test(text)) {
      setDigits(text.split(''));
      focusBox(CODE_LENGTH - 1);
    }
  };

  const submittingIntent = navigation.state !== 'idle' ? navigation.formData?.get('intent') : undefined;
  const succeeded = navigation.state === 'loading' && submittingIntent === 'verify' && navigation.location.pathname === '/login-success';
  const codeErrors = fields.code.errors;
  const codeErrorId = fields.code.errorId;
  const invalid = codeErrors ? true : undefined;
  const describedBy = [invalid ? codeErrorId : null, `${form.id}-hint`].filter(Boolean).join(' ');
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
        <div className="field">
          <label htmlFor={fields.code.id} id={`${form.id}-label`}>
            {t('auth.code.label')}
          </label>
          {hydrated ? (
            <div className="code-boxes" role="group" aria-labelledby={`${form.id}-label`}>
              {digits.map((digit, index) => (
                <input
                  key={index}
                  ref={(el) => {
                    boxes.current[index] = el;
                  }}
                  id={index === 0 ? fields.code.id : undefined}
                  className="code-box"
                  type="text"
                  inputMode="numeric"
                  autoComplete={index === 0 ? 'one-time-code' : 'off'}
                  pattern="[0-9]*"
                  aria-label={t('auth.code.digit', { index: index + 1 })}
                  aria-invalid={invalid}
                  aria-describedby={describedBy}
                  value={digit}
                  onChange={(e) => onChange(index, e.currentTarget.value)}
                  onKeyDown={(e) => onKeyDown(index, e)}
                  onPaste={onPaste}
                  onFocus={(e) => e.currentTarget.select()}
                />
              ))}
              <input type="hidden" name="code" value={digits.join('')} />
            </div>
          ) : (
            <input
              id={fields.code.id}
              name="code"
              className="code-single"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              maxLength={CODE_LENGTH}
              defaultValue={typeof fields.code.initialValue === 'string' ? fields.code.initialValue : ''}
              aria-invalid={invalid}
              aria-describedby={describedBy}
            />
          )}
          {codeErrors ? (
            <p className="field-error" id={codeErrorId} role="alert">
              {codeErrors.map((e) => t(e)).join(' ')}
            </p>
          ) : null}
          <p className="field-hint" id={`${form.id}-hint`}>
            {t('auth.code.hint')}
          </p>
        </div>
        {form.errors ? (
          <p className="form-error" id={form.errorId} role="alert">
            {form.errors.map((e) => t(e)).join(' ')}
          </p>
        ) : null}
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
