import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { APP_VERSION } from '~/lib/version';

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <div className="container footer-inner">
        <nav className="footer-links" aria-label={t('footer.label')}>
          <Link to="/terms">{t('footer.terms')}</Link>
          <Link to="/privacy-policy">{t('footer.privacy')}</Link>
          <Link to="/booking-terms">{t('footer.bookingTerms')}</Link>
          <Link to="/api/docs">{t('footer.developers')}</Link>
        </nav>
        <p className="copyright">
          {`${t('footer.copyright', { year: new Date().getFullYear() })} `}
          <span className="nowrap">{`· ${t('app.version', { version: APP_VERSION })}`}</span>
        </p>
      </div>
    </footer>
  );
}
