/** Link schemes allowed in rendered markdown (SPEC §5); anything else renders without an href. */
const ALLOWED_SCHEMES = ['http', 'https', 'irc', 'ircs', 'mailto', 'xmpp'];

export function safeMarkdownUrl(url: string): string {
  const trimmed = url.trim();
  // Browsers ignore tabs and newlines inside a scheme ("java\tscript:"), so strip them before looking.
  const normalised = trimmed.replace(/[\u0000-\u001F\u007F\s]+/g, '');
  const colon = normalised.indexOf(':');
  const boundary = normalised.search(/[/?#]/);
  // No scheme (relative link, fragment, query) — safe.
  if (colon === -1 || (boundary !== -1 && colon > boundary)) return trimmed;
  const scheme = normalised.slice(0, colon).toLowerCase();
  return ALLOWED_SCHEMES.includes(scheme) ? trimmed : '';
}

/**
 * A redirect target from the client (`redirectTo`), or the fallback. Only a path on this origin passes,
 * judged the way a browser will read it: browsers drop tabs and newlines inside a URL and treat `\` as `/`,
 * so `/\t/evil.example` and `/\\evil.example` are other sites. Any control character or backslash is
 * refused outright (a newline would also break the Location header), and what is returned is the path as
 * the URL parser resolved it, never starting with `//`.
 */
export function safeRedirectPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 2048) return fallback;
  if (/[\u0000-\u001F\u007F\\]/.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, 'http://same.invalid');
  } catch {
    return fallback;
  }
  if (url.origin !== 'http://same.invalid') return fallback;
  const path = url.pathname + url.search + url.hash;
  return path.startsWith('//') ? fallback : path;
}
