/**
 * Terms versions and the browser's local terms record (SPEC §3: version, agreedAt; §4 terms check on load).
 * Pure: used by the terms service, the modal and the admin form.
 */

/** The built-in terms answer when no version is active (SPEC §3). */
export const FALLBACK_TERMS_VERSION = '1.0.0';
export const FALLBACK_TERMS_UPDATED_AT = '2025-06-03T00:00:00.000Z';
/** The fallback terms have no row; their id in answers. */
export const FALLBACK_TERMS_ID = 0;

/** Local storage keys (SPEC §3). */
export const TERMS_AGREED_KEY = 'termsAgreed';
export const HAS_VISITED_KEY = 'hasVisited';

/** SPEC §9 scroll tolerance: Agree is enabled within this many pixels of the bottom. */
export const TERMS_SCROLL_TOLERANCE_PX = 10;

export const TERMS_VERSION_PATTERN = /^\d{1,4}\.\d{1,4}\.\d{1,4}$/;

/** Orders two versions `major.minor.patch` by number (1.10.0 is after 1.9.0). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i += 1) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

export interface LocalTermsRecord {
  version: string;
  agreedAt: string;
}

/**
 * Reads the stored record: `undefined` when there is none, `'corrupt'` when it cannot be read as one (SPEC §4:
 * a corrupt record is deleted without showing the modal).
 */
export function parseLocalTermsRecord(raw: string | null): LocalTermsRecord | 'corrupt' | undefined {
  if (raw === null) return undefined;
  try {
    const value = JSON.parse(raw) as Partial<LocalTermsRecord> | null;
    if (value && typeof value.version === 'string' && typeof value.agreedAt === 'string' && !Number.isNaN(Date.parse(value.agreedAt))) {
      return { version: value.version, agreedAt: value.agreedAt };
    }
  } catch {
    /* not JSON */
  }
  return 'corrupt';
}

/** Scrolled to within the tolerance of the bottom (SPEC §4). */
export function scrolledToBottom(box: { scrollTop: number; clientHeight: number; scrollHeight: number }): boolean {
  return box.scrollHeight - box.scrollTop - box.clientHeight <= TERMS_SCROLL_TOLERANCE_PX;
}

/** The legal texts an admin publishes (also the values of the kind column of the terms table, db/schema.ts). */
export const TERMS_KINDS = ['terms', 'privacy', 'booking'] as const;
export type TermsKind = (typeof TERMS_KINDS)[number];

/**
 * A logged-in user who disagreed (issue 35, /terms/disagree) keeps browsing with a banner instead of the modal,
 * for the browser session. Only a display preference (the server refuses booking and messaging on its own), so
 * neither signed nor httpOnly.
 */
export const TERMS_DECLINED_COOKIE = 'terms-declined';
export const termsDeclinedCookie = `${TERMS_DECLINED_COOKIE}=1; Path=/; SameSite=Lax`;
export const termsDeclinedClearCookie = `${TERMS_DECLINED_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0`;

/** True when the request's Cookie header says the user disagreed in this session. */
export function termsDeclined(cookieHeader: string | null | undefined): boolean {
  return !!cookieHeader && cookieHeader.split(';').some((part) => part.trim() === `${TERMS_DECLINED_COOKIE}=1`);
}

/**
 * A short fingerprint of a draft (issue 35): the admin's confirmation names the text previewed, so a text
 * changed after the preview is shown again rather than published unseen. FNV-1a, not a secret.
 */
export function draftFingerprint(draft: { kind: string; locale: string; version: string; title: string; content: string }): string {
  let hash = 0x811c9dc5;
  for (const char of [draft.kind, draft.locale, draft.version, draft.title, draft.content].join('\u0000')) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
