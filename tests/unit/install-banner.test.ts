import { describe, expect, it } from 'vitest';
import { dismissedRecently, INSTALL_SUPPRESS_MS, isIos } from '~/lib/install-banner';

/** SPEC §4 Install banner: a dismissal keeps it away for 7 days; iOS gets the share-menu variant. */
describe('install banner rules', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  it('a dismissal within 7 days hides it; older, absent, corrupt or future ones do not', () => {
    expect(dismissedRecently(String(now - 1000), now)).toBe(true);
    expect(dismissedRecently(String(now - INSTALL_SUPPRESS_MS + 1), now)).toBe(true);
    expect(dismissedRecently(String(now - INSTALL_SUPPRESS_MS), now)).toBe(false);
    expect(dismissedRecently(String(now - 8 * 86_400_000), now)).toBe(false);
    expect(dismissedRecently(null, now)).toBe(false);
    expect(dismissedRecently('not a time', now)).toBe(false);
    expect(dismissedRecently(String(now + 86_400_000), now)).toBe(false);
  });
  it('tells iPhones and iPads (also iPadOS posing as a Mac) from others', () => {
    expect(isIos('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X)')).toBe(true);
    expect(isIos('Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X)')).toBe(true);
    expect(isIos('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 5)).toBe(true);
    expect(isIos('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 0)).toBe(false);
    expect(isIos('Mozilla/5.0 (Linux; Android 14; Pixel 8)')).toBe(false);
  });
});
