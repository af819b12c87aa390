import { Form, useFetcher, useLocation } from '@remix-run/react';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EMAIL_BANNER_STORAGE_KEY, emailBannerDismissCookie } from '~/lib/email-banner';
import { ErrorList } from '~/components/forms/messages';
import { OtpInput } from '~/components/forms/otp-input';
import { useRootData } from '~/lib/root-data';

/** What POST /email-verification answers when it does not redirect (messages already translated). */
export interface EmailVerificationResult {
  intent: 'send' | 'verify';
  sent?: boolean;
  email?: string;
  /** Next to the code input. */
  codeError?: string;
  /** About sending. */
  sendError?: string;
  /** The page the banner was on (the /email-verification page keeps it for the next post). */
  redirectTo?: string;
}

/**
 * SPEC §2 Email banner: for logged-in travelers and guides whose email is not verified. It can send a code
 * and check one (success: toast 郵箱認證成功！ and the banner goes away), and it can be dismissed for the
 * browser session. Its forms post to /email-verification, so everything works without JS too.
 */
export function EmailBanner() {
  const { t } = useTranslation();
  const data = useRootData();
  const location = useLocation();
  const fetcher = useFetcher<EmailVerificationResult>();
  const [dismissed, setDismissed] = useState(false);

  useEffect(() => {
    try {
      if (sessionStorage.getItem(EMAIL_BANNER_STORAGE_KEY) === '1') setDismissed(true);
    } catch {
      /* storage may be disabled */
    }
  }, []);

  const user = data?.user;
  const dismissedOnServer = (data as { emailBannerDismissed?: boolean } | undefined)?.emailBannerDismissed === true;
  if (!user || user.type === 'admin' || user.isEmailVerified) return null;
  if (dismissed || dismissedOnServer || location.pathname === '/email-verification') return null;

  const redirectTo = location.pathname + location.search;
  const dismiss = (event: FormEvent<HTMLFormElement>) => {
    // With JS no request is needed: remember it for this tab and, through the cookie, for the server.
    event.preventDefault();
    try {
      sessionStorage.setItem(EMAIL_BANNER_STORAGE_KEY, '1');
    } catch {
      /* storage may be disabled */
    }
    document.cookie = emailBannerDismissCookie;
    setDismissed(true);
  };

  return (
    <aside className="email-banner" aria-label={t('auth.banner.label')}>
      <div className="container email-banner-inner">
        <p className="email-banner-text">{t('auth.banner.text')}</p>
        <EmailVerificationForms
          FormComponent={fetcher.Form}
          result={fetcher.data}
          redirectTo={redirectTo}
          idPrefix="email-banner"
          busy={fetcher.state !== 'idle'}
        />
        <Form method="post" action="/email-verification" className="email-banner-dismiss" onSubmit={dismiss}>
          <input type="hidden" name="intent" value="dismiss" />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <button type="submit" className="icon-button" aria-label={t('auth.banner.dismiss')} title={t('auth.banner.dismiss')}>
            <span aria-hidden="true">×</span>
          </button>
        </Form>
      </div>
    </aside>
  );
}

/** The send and check forms, used by the banner (fetcher, with JS) and the /email-verification page. */
export function EmailVerificationForms({
  FormComponent,
  result,
  redirectTo,
  idPrefix,
  busy = false,
}: {
  FormComponent: typeof Form;
  result?: EmailVerificationResult;
  redirectTo: string;
  idPrefix: string;
  busy?: boolean;
}) {
  const { t } = useTranslation();
  const codeId = `${idPrefix}-code`;
  const codeErrorId = `${idPrefix}-code-error`;
  const codeError = result?.intent === 'verify' ? result.codeError : undefined;
  return (
    <div className="email-verification-forms">
      <FormComponent method="post" action="/email-verification" className="email-verify-form">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <label htmlFor={codeId} className="email-code-label">
          {t('auth.banner.codeLabel')}
        </label>
        <div className="email-verify-row">
          <OtpInput
            id={codeId}
            name="code"
            className="email-code-input"
            invalid={codeError ? true : undefined}
            describedBy={codeError ? codeErrorId : undefined}
          />
          <button type="submit" name="intent" value="verify" className="button button-small" disabled={busy}>
            {t('auth.banner.verify')}
          </button>
        </div>
        <ErrorList id={codeErrorId} errors={codeError ? [codeError] : null} alert />
      </FormComponent>
      <FormComponent method="post" action="/email-verification" className="email-send-form">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <button type="submit" name="intent" value="send" className="button button-small button-secondary" disabled={busy}>
          {t('auth.banner.send')}
        </button>
        <ErrorList errors={result?.intent === 'send' && result.sendError ? [result.sendError] : null} alert />
        {result?.intent === 'send' && result.sent ? (
          <p className="email-sent" role="status">
            {t('auth.banner.sent', { email: result.email })}
          </p>
        ) : null}
      </FormComponent>
    </div>
  );
}
