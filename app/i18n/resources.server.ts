import zhTWCommon from '~/locales/zh-TW/common.json';
import zhTWChat from '~/locales/zh-TW/chat.json';
import zhTWBoard from '~/locales/zh-TW/board.json';
import zhTWReports from '~/locales/zh-TW/reports.json';
import zhTWAccount from '~/locales/zh-TW/account.json';
import zhTWAdmin from '~/locales/zh-TW/admin.json';
import zhTWAuth from '~/locales/zh-TW/auth.json';
import zhTWAvatar from '~/locales/zh-TW/avatar.json';
import zhTWDiscover from '~/locales/zh-TW/discover.json';
import zhTWBooking from '~/locales/zh-TW/booking.json';
import zhTWMail from '~/locales/zh-TW/mail.json';
import zhTWNotifications from '~/locales/zh-TW/notifications.json';
import zhTWOrders from '~/locales/zh-TW/orders.json';
import zhTWProfile from '~/locales/zh-TW/profile.json';
import zhTWSearch from '~/locales/zh-TW/search.json';
import zhTWTrust from '~/locales/zh-TW/trust.json';
import zhTWReviews from '~/locales/zh-TW/reviews.json';
import zhTWPwa from '~/locales/zh-TW/pwa.json';
import zhTWPush from '~/locales/zh-TW/push.json';
import zhTWTerms from '~/locales/zh-TW/terms.json';
import zhTWBanners from '~/locales/zh-TW/banners.json';
import zhTWExports from '~/locales/zh-TW/exports.json';
import zhTWStats from '~/locales/zh-TW/stats.json';
import zhTWDebug from '~/locales/zh-TW/debug.json';
import zhTWPayments from '~/locales/zh-TW/payments.json';
import zhTWApidocs from '~/locales/zh-TW/apidocs.json';
import enCommon from '~/locales/en/common.json';
import enChat from '~/locales/en/chat.json';
import enBoard from '~/locales/en/board.json';
import enReports from '~/locales/en/reports.json';
import enAccount from '~/locales/en/account.json';
import enAdmin from '~/locales/en/admin.json';
import enAuth from '~/locales/en/auth.json';
import enAvatar from '~/locales/en/avatar.json';
import enDiscover from '~/locales/en/discover.json';
import enBooking from '~/locales/en/booking.json';
import enMail from '~/locales/en/mail.json';
import enNotifications from '~/locales/en/notifications.json';
import enOrders from '~/locales/en/orders.json';
import enProfile from '~/locales/en/profile.json';
import enSearch from '~/locales/en/search.json';
import enTrust from '~/locales/en/trust.json';
import enReviews from '~/locales/en/reviews.json';
import enPwa from '~/locales/en/pwa.json';
import enPush from '~/locales/en/push.json';
import enTerms from '~/locales/en/terms.json';
import enBanners from '~/locales/en/banners.json';
import enExports from '~/locales/en/exports.json';
import enStats from '~/locales/en/stats.json';
import enDebug from '~/locales/en/debug.json';
import enPayments from '~/locales/en/payments.json';
import enApidocs from '~/locales/en/apidocs.json';
import jaCommon from '~/locales/ja/common.json';
import jaChat from '~/locales/ja/chat.json';
import jaBoard from '~/locales/ja/board.json';
import jaReports from '~/locales/ja/reports.json';
import jaAccount from '~/locales/ja/account.json';
import jaAdmin from '~/locales/ja/admin.json';
import jaAuth from '~/locales/ja/auth.json';
import jaAvatar from '~/locales/ja/avatar.json';
import jaDiscover from '~/locales/ja/discover.json';
import jaBooking from '~/locales/ja/booking.json';
import jaMail from '~/locales/ja/mail.json';
import jaNotifications from '~/locales/ja/notifications.json';
import jaOrders from '~/locales/ja/orders.json';
import jaProfile from '~/locales/ja/profile.json';
import jaSearch from '~/locales/ja/search.json';
import jaTrust from '~/locales/ja/trust.json';
import jaReviews from '~/locales/ja/reviews.json';
import jaPwa from '~/locales/ja/pwa.json';
import jaPush from '~/locales/ja/push.json';
import jaTerms from '~/locales/ja/terms.json';
import jaBanners from '~/locales/ja/banners.json';
import jaExports from '~/locales/ja/exports.json';
import jaStats from '~/locales/ja/stats.json';
import jaDebug from '~/locales/ja/debug.json';
import jaPayments from '~/locales/ja/payments.json';
import jaApidocs from '~/locales/ja/apidocs.json';
import { SUPPORTED_LOCALES, type Locale } from './config';

/**
 * All translations, bundled into the server. The browser receives only its own language (root loader).
 * Each language folder holds common.json plus one file per area (auth.json, profile.json, ...): they are
 * merged into the one `common` namespace, a file's keys under its name, so the key `auth.login.title` reads
 * auth.json's `login.title` (the browser gets the same files, see bundles.ts). Splitting the files keeps each feature's strings together.
 * Static imports (not import.meta.glob) because server.ts is also bundled by esbuild and run by tsx;
 * tests/unit/i18n.test.ts fails when a file in app/locales is not listed here.
 */
const AREAS = {
  'zh-TW': { account: zhTWAccount, board: zhTWBoard, chat: zhTWChat, admin: zhTWAdmin, auth: zhTWAuth, avatar: zhTWAvatar, booking: zhTWBooking, discover: zhTWDiscover, mail: zhTWMail, notifications: zhTWNotifications, orders: zhTWOrders, profile: zhTWProfile, reviews: zhTWReviews, search: zhTWSearch, trust: zhTWTrust, pwa: zhTWPwa, terms: zhTWTerms, banners: zhTWBanners, push: zhTWPush, exports: zhTWExports, reports: zhTWReports, stats: zhTWStats, debug: zhTWDebug, payments: zhTWPayments, apidocs: zhTWApidocs },
  en: { account: enAccount, board: enBoard, chat: enChat, admin: enAdmin, auth: enAuth, avatar: enAvatar, booking: enBooking, discover: enDiscover, mail: enMail, notifications: enNotifications, orders: enOrders, profile: enProfile, reviews: enReviews, search: enSearch, trust: enTrust, pwa: enPwa, terms: enTerms, banners: enBanners, push: enPush, exports: enExports, reports: enReports, stats: enStats, debug: enDebug, payments: enPayments, apidocs: enApidocs },
  ja: { account: jaAccount, board: jaBoard, chat: jaChat, admin: jaAdmin, auth: jaAuth, avatar: jaAvatar, booking: jaBooking, discover: jaDiscover, mail: jaMail, notifications: jaNotifications, orders: jaOrders, profile: jaProfile, reviews: jaReviews, search: jaSearch, trust: jaTrust, pwa: jaPwa, terms: jaTerms, banners: jaBanners, push: jaPush, exports: jaExports, reports: jaReports, stats: jaStats, debug: jaDebug, payments: jaPayments, apidocs: jaApidocs },
} satisfies Record<Locale, Record<string, object>>;
const COMMON = { 'zh-TW': zhTWCommon, en: enCommon, ja: jaCommon } satisfies Record<Locale, object>;

export const AREA_NAMES = Object.keys(AREAS['zh-TW']);

type Translations = typeof zhTWCommon & Record<string, unknown>;

/**
 * common.json may hold a few keys of an area too (the header's `account.header`/`account.nav` and the e-mail
 * banner's `auth.banner`, and the shared form fields' `auth.code.digit`/`auth.password`, needed on every page while
 * the rest of the area is not): they are merged, not replaced.
 */
function merge(common: Record<string, unknown>, areas: Record<string, object>): Translations {
  const merged: Record<string, unknown> = { ...common };
  for (const [name, area] of Object.entries(areas)) merged[name] = deepMerge(common[name], area);
  return merged as Translations;
}

/** Deep, as the browser's translator adds files (light.ts): `auth.code.digit` in common.json stays beside auth.json's `code`. */
function deepMerge(shared: unknown, area: object): object {
  if (!shared || typeof shared !== 'object') return area;
  const out: Record<string, unknown> = { ...(shared as Record<string, unknown>) };
  for (const [key, value] of Object.entries(area)) {
    out[key] = value && typeof value === 'object' && !Array.isArray(value) ? deepMerge(out[key], value) : value;
  }
  return out;
}

export const resources = Object.fromEntries(
  SUPPORTED_LOCALES.map((locale) => [locale, { common: merge(COMMON[locale], AREAS[locale]) }]),
) as Record<Locale, { common: Translations }>;
