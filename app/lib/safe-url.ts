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

/** Only same-site paths may be used as redirect targets after a form post. */
export function safeRedirectPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return fallback;
  }
  return value;
}
