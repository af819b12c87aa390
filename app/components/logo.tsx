/**
 * The mark: a blue map pin with a mountain (the same drawing as /favicon.svg). It is drawn by the stylesheet
 * (`.logo` in app.css, a data URL), so it costs no request and no bytes in every page's HTML.
 */
export function Logo() {
  return <span aria-hidden="true" className="logo" />;
}
