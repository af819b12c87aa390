/**
 * The install banner's rules (SPEC §4 Install banner), pure so they are tested alone: it shows INSTALL_DELAY_MS
 * after the install signal, never when running standalone, nor within INSTALL_SUPPRESS_MS of a dismissal
 * ("later", or declining the browser's prompt), whose time is kept in local storage under INSTALL_DISMISSED_KEY.
 */
export const INSTALL_DELAY_MS = 10_000;
export const INSTALL_SUPPRESS_MS = 7 * 24 * 60 * 60 * 1000;
export const INSTALL_DISMISSED_KEY = 'install-dismissed-at';

/** Whether a dismissal stored as `stored` (ms since the epoch, as text) still hides the banner at `now`. */
export function dismissedRecently(stored: string | null, now: number): boolean {
  if (!stored) return false;
  const at = Number(stored);
  if (!Number.isFinite(at)) return false;
  return now - at < INSTALL_SUPPRESS_MS && at <= now;
}

/** iPhone, iPod, iPad (also iPadOS that says it is a Mac but has touch): no install prompt, the share menu instead. */
export function isIos(userAgent: string, maxTouchPoints = 0): boolean {
  return /iPad|iPhone|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
}
