import { Link, useLocation } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HAS_VISITED_KEY, parseLocalTermsRecord, TERMS_AGREED_KEY } from '~/lib/terms';
import { useRootData } from '~/lib/root-data';

/**
 * The terms as a banner that never blocks the page (issue 35):
 * - a visitor who is not logged in and has not been here: a dismissible note that using the site means agreeing
 *   to the terms (kept in local storage, so shown with JS only; nothing is asked of a visitor);
 * - a logged-in user who disagreed this session: what it means and the way to agree, on every page, with JS or
 *   without, until they agree (the server refuses booking and messaging meanwhile).
 */
export function TermsNotice() {
  const data = useRootData();
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const user = data?.user;
  const [visitorNotice, setVisitorNotice] = useState(false);

  useEffect(() => {
    if (user) return setVisitorNotice(false);
    try {
      const record = parseLocalTermsRecord(localStorage.getItem(TERMS_AGREED_KEY));
      if (record === 'corrupt') localStorage.removeItem(TERMS_AGREED_KEY);
      setVisitorNotice(!(record && record !== 'corrupt') && !localStorage.getItem(HAS_VISITED_KEY));
    } catch {
      /* storage may be disabled: no notice */
    }
  }, [user]);

  if (user && data?.termsDeclined && !/^\/terms(\/|$)/.test(pathname)) {
    return (
      <aside className="terms-notice terms-notice-declined" aria-label={t('terms.banner.agree')} data-testid="terms-declined-banner">
        <div className="container terms-notice-inner">
          <p>{t('terms.banner.declined')}</p>
          <Link className="button" to={`/terms/agree?${new URLSearchParams({ redirectTo: pathname + search })}`}>
            {t('terms.banner.agree')}
          </Link>
        </div>
      </aside>
    );
  }
  if (user || !visitorNotice) return null;
  const dismiss = () => {
    try {
      localStorage.setItem(HAS_VISITED_KEY, 'true');
    } catch {
      /* storage may be disabled */
    }
    setVisitorNotice(false);
  };
  return (
    <aside className="terms-notice" aria-label={t('terms.banner.read')} data-testid="terms-visitor-banner">
      <div className="container terms-notice-inner">
        <p>
          {t('terms.banner.visitor')} <Link to="/terms">{t('terms.banner.read')}</Link>
        </p>
        <button type="button" className="button button-secondary" onClick={dismiss}>
          {t('terms.banner.dismiss')}
        </button>
      </div>
    </aside>
  );
}
