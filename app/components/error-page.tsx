import { useTranslation } from 'react-i18next';

/**
 * What the error boundaries show: translated 404/403 pages, or 出現錯誤 with a retry button; with a small
 * "reference: <request id>" line, so a visitor's screenshot leads to the request's log line. The id is the one of
 * the request that rendered the page on the server (`reference`, from the root data); an error page reached by a
 * client-side navigation shows none, since the page does not know that request's id (the root data's is older): the
 * callers pass it through `useFromDocument` (hydrated.ts), outside the lazy part this module is on the client.
 */
export function ErrorPage({ status, reference }: { status?: number; reference?: string }) {
  const { t } = useTranslation();
  const referenceLine = reference ? <p className="error-reference">{t('errors.reference', { id: reference })}</p> : null;
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
        {referenceLine}
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
      {referenceLine}
    </section>
  );
}
