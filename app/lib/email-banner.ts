/**
 * The email banner can be dismissed for the browser session (SPEC §2 Email banner). With JS the banner
 * keeps a sessionStorage flag and also sets this cookie; without JS its form asks the server to set it.
 * A cookie without Max-Age/Expires ends with the browser session. It is only a display preference, so
 * it is neither signed nor httpOnly.
 */
export const EMAIL_BANNER_COOKIE = 'email-banner-dismissed';
export const EMAIL_BANNER_STORAGE_KEY = 'email-banner-dismissed';

/** The Set-Cookie value (or document.cookie assignment) that dismisses the banner for this session. */
export const emailBannerDismissCookie = `${EMAIL_BANNER_COOKIE}=1; Path=/; SameSite=Lax`;

/** True when the request's Cookie header says the banner was dismissed in this session. */
export function emailBannerDismissed(cookieHeader: string | null | undefined): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(';').some((part) => part.trim() === `${EMAIL_BANNER_COOKIE}=1`);
}
