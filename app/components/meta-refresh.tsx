/**
 * A meta refresh for browsers without JS (pages that move on after a moment, SPEC §2 /login-success,
 * /logout-success). Inside <noscript> it only takes effect when scripting is off; with JS the page's own
 * timer navigates instead. The markup is set as HTML so React never builds a live <meta> element.
 */
export function RefreshWithoutJs({ seconds, url }: { seconds: number; url: string }) {
  const escaped = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return <noscript dangerouslySetInnerHTML={{ __html: `<meta http-equiv="refresh" content="${seconds};url=${escaped}">` }} />;
}
