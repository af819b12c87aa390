import crypto from 'node:crypto';

/**
 * ECPay's CheckMacValue (its all-in-one payment protocol's signature; docs/decisions/039), written from the
 * published algorithm, used by both sides: our ECPay adapter signs requests and checks callbacks, the simulator
 * checks requests and signs callbacks.
 *
 *   1. drop CheckMacValue; sort the parameters by name, case-insensitively;
 *   2. join as `HashKey=<key>&name=value&…&HashIV=<iv>` (values as they are, not encoded);
 *   3. URL-encode the whole string as .NET's HttpUtility.UrlEncode does (space → `+`; letters, digits and
 *      `-_.!*()` left as they are; everything else as %XX of its UTF-8 bytes), then lower-case all of it;
 *   4. SHA-256, hex, upper case.
 */
export interface EcpayKeys {
  hashKey: string;
  hashIv: string;
}

/** Step 3: .NET-style URL encoding, lower-cased (`'` and `~` are encoded; `!*()` are not, unlike encodeURIComponent). */
export function ecpayUrlEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/%20/g, '+')
    .replace(/['~]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)
    .toLowerCase();
}

/** Steps 1 and 2: the string that is encoded and hashed. */
export function checkMacSource(params: Record<string, string>, keys: EcpayKeys): string {
  const names = Object.keys(params)
    .filter((name) => name !== 'CheckMacValue')
    // Ordinal comparison of the lower-cased names (PHP's strcasecmp), never the locale's collation.
    .sort((a, b) => {
      const x = a.toLowerCase();
      const y = b.toLowerCase();
      return x < y ? -1 : x > y ? 1 : 0;
    });
  return [`HashKey=${keys.hashKey}`, ...names.map((name) => `${name}=${params[name]}`), `HashIV=${keys.hashIv}`].join('&');
}

export function checkMacValue(params: Record<string, string>, keys: EcpayKeys): string {
  return crypto.createHash('sha256').update(ecpayUrlEncode(checkMacSource(params, keys)), 'utf8').digest('hex').toUpperCase();
}

/** The parameters with their CheckMacValue added (what is posted). */
export function signed(params: Record<string, string>, keys: EcpayKeys): Record<string, string> {
  const { CheckMacValue: _ignored, ...rest } = params;
  return { ...rest, CheckMacValue: checkMacValue(rest, keys) };
}

/** Whether the parameters carry their own valid CheckMacValue; the comparison takes the same time wherever they differ. */
export function hasValidCheckMacValue(params: Record<string, string>, keys: EcpayKeys): boolean {
  const given = params.CheckMacValue;
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(checkMacValue(params, keys), 'utf8');
  const actual = Buffer.from(given.toUpperCase(), 'utf8');
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}
