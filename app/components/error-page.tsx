import { useTranslation } from 'react-i18next';

/** What the error boundaries show: translated 404/403 pages, or 出現錯誤 with a retry button. */
export function ErrorPage({ status }: { status?: number }) {
  const { t } = useTranslation();
  if (status === 404 || status === 403) {
    const notFound = status === 404;
    return (
      <section className="error-page" aria-labelledby="error-title">
        <p className="error-code">{status}</p>
        <h1 id="error-title">{t(notFound ? 'errors.notFoundTitle' : 'errors.forbiddenTitle')}</h1>
        <p>{t(notFound ? 'errors.notFoundText' : 'errors.forbiddenText')}</p>
        <a className="button" href="/">
          {t('errors.backHome')}
        </a>
      </section>
    );
  }
  return (
    <section className="error-page" aria-labelledby="error-title" role="alert">
      <h1 id="error-title">{t('errors.title')}</h1>
      <p>{t('errors.generic')}</p>
      {/* A link to the same URL retries without JS; with JS it reloads in place. */}
      <a
        className="button"
        href=""
        onClick={(e) => {
          e.preventDefault();
          window.location.reload();
        }}
      >
        {t('errors.retry')}
      </a>
    </section>
  );
}
