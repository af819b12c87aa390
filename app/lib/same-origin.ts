/**
 * Whether a browser request comes from one of our own pages (ARCHITECTURE §5): one rule for form posts,
 * cookie-authenticated API writes and Socket.IO handshakes with a cookie. Origin, when sent, must name this
 * host (port included: another port of the same host is another origin). Without Origin, the browser's
 * Sec-Fetch-Site must not say another site; a client sending neither is not a browser that could be
 * tricked into carrying a cookie.
 */
export function isSameOrigin(origin: string | undefined, secFetchSite: string | undefined, host: string | undefined): boolean {
  if (origin) return origin !== 'null' && hostOf(origin) === host;
  return secFetchSite !== 'cross-site' && secFetchSite !== 'same-site';
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
