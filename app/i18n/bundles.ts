import zhTWCommon from '~/locales/zh-TW/common.json?url&no-inline';
import zhTWChat from '~/locales/zh-TW/chat.json?url&no-inline';
import zhTWBoard from '~/locales/zh-TW/board.json?url&no-inline';
import zhTWReports from '~/locales/zh-TW/reports.json?url&no-inline';
import zhTWAccount from '~/locales/zh-TW/account.json?url&no-inline';
import zhTWAdmin from '~/locales/zh-TW/admin.json?url&no-inline';
import zhTWAuth from '~/locales/zh-TW/auth.json?url&no-inline';
import zhTWAvatar from '~/locales/zh-TW/avatar.json?url&no-inline';
import zhTWDiscover from '~/locales/zh-TW/discover.json?url&no-inline';
import zhTWBooking from '~/locales/zh-TW/booking.json?url&no-inline';
import zhTWNotifications from '~/locales/zh-TW/notifications.json?url&no-inline';
import zhTWOrders from '~/locales/zh-TW/orders.json?url&no-inline';
import zhTWProfile from '~/locales/zh-TW/profile.json?url&no-inline';
import zhTWSearch from '~/locales/zh-TW/search.json?url&no-inline';
import zhTWTrust from '~/locales/zh-TW/trust.json?url&no-inline';
import zhTWReviews from '~/locales/zh-TW/reviews.json?url&no-inline';
import zhTWPwa from '~/locales/zh-TW/pwa.json?url&no-inline';
import zhTWPush from '~/locales/zh-TW/push.json?url&no-inline';
import zhTWTerms from '~/locales/zh-TW/terms.json?url&no-inline';
import zhTWBanners from '~/locales/zh-TW/banners.json?url&no-inline';
import zhTWExports from '~/locales/zh-TW/exports.json?url&no-inline';
import zhTWStats from '~/locales/zh-TW/stats.json?url&no-inline';
import zhTWDebug from '~/locales/zh-TW/debug.json?url&no-inline';
import zhTWPayments from '~/locales/zh-TW/payments.json?url&no-inline';
import zhTWApidocs from '~/locales/zh-TW/apidocs.json?url&no-inline';
import enCommon from '~/locales/en/common.json?url&no-inline';
import enChat from '~/locales/en/chat.json?url&no-inline';
import enBoard from '~/locales/en/board.json?url&no-inline';
import enReports from '~/locales/en/reports.json?url&no-inline';
import enAccount from '~/locales/en/account.json?url&no-inline';
import enAdmin from '~/locales/en/admin.json?url&no-inline';
import enAuth from '~/locales/en/auth.json?url&no-inline';
import enAvatar from '~/locales/en/avatar.json?url&no-inline';
import enDiscover from '~/locales/en/discover.json?url&no-inline';
import enBooking from '~/locales/en/booking.json?url&no-inline';
import enNotifications from '~/locales/en/notifications.json?url&no-inline';
import enOrders from '~/locales/en/orders.json?url&no-inline';
import enProfile from '~/locales/en/profile.json?url&no-inline';
import enSearch from '~/locales/en/search.json?url&no-inline';
import enTrust from '~/locales/en/trust.json?url&no-inline';
import enReviews from '~/locales/en/reviews.json?url&no-inline';
import enPwa from '~/locales/en/pwa.json?url&no-inline';
import enPush from '~/locales/en/push.json?url&no-inline';
import enTerms from '~/locales/en/terms.json?url&no-inline';
import enBanners from '~/locales/en/banners.json?url&no-inline';
import enExports from '~/locales/en/exports.json?url&no-inline';
import enStats from '~/locales/en/stats.json?url&no-inline';
import enDebug from '~/locales/en/debug.json?url&no-inline';
import enPayments from '~/locales/en/payments.json?url&no-inline';
import enApidocs from '~/locales/en/apidocs.json?url&no-inline';
import jaCommon from '~/locales/ja/common.json?url&no-inline';
import jaChat from '~/locales/ja/chat.json?url&no-inline';
import jaBoard from '~/locales/ja/board.json?url&no-inline';
import jaReports from '~/locales/ja/reports.json?url&no-inline';
import jaAccount from '~/locales/ja/account.json?url&no-inline';
import jaAdmin from '~/locales/ja/admin.json?url&no-inline';
import jaAuth from '~/locales/ja/auth.json?url&no-inline';
import jaAvatar from '~/locales/ja/avatar.json?url&no-inline';
import jaDiscover from '~/locales/ja/discover.json?url&no-inline';
import jaBooking from '~/locales/ja/booking.json?url&no-inline';
import jaNotifications from '~/locales/ja/notifications.json?url&no-inline';
import jaOrders from '~/locales/ja/orders.json?url&no-inline';
import jaProfile from '~/locales/ja/profile.json?url&no-inline';
import jaSearch from '~/locales/ja/search.json?url&no-inline';
import jaTrust from '~/locales/ja/trust.json?url&no-inline';
import jaReviews from '~/locales/ja/reviews.json?url&no-inline';
import jaPwa from '~/locales/ja/pwa.json?url&no-inline';
import jaPush from '~/locales/ja/push.json?url&no-inline';
import jaTerms from '~/locales/ja/terms.json?url&no-inline';
import jaBanners from '~/locales/ja/banners.json?url&no-inline';
import jaExports from '~/locales/ja/exports.json?url&no-inline';
import jaStats from '~/locales/ja/stats.json?url&no-inline';
import jaDebug from '~/locales/ja/debug.json?url&no-inline';
import jaPayments from '~/locales/ja/payments.json?url&no-inline';
import jaApidocs from '~/locales/ja/apidocs.json?url&no-inline';
import type { Locale } from './config';

/**
 * The browser's translations are not in the pages: each language's `common` file and each area file
 * (account, auth, profile, ...) is a content-hashed asset of the client build, fetched once and then cached
 * for good (build/client/assets is served immutable). A page lists the files it needs as
 * `<link rel="preload" as="fetch" data-i18n>` (root Layout): `common` on every page, plus
 * what its route modules name in `handle.i18n`; entry.client.tsx loads them before hydrating, and the rest of
 * the language after. The server renders with every string (i18n.server.ts). `mail` is server-only.
 */
export const BUNDLE_URLS = {
  'zh-TW': { account: zhTWAccount, board: zhTWBoard, chat: zhTWChat, admin: zhTWAdmin, auth: zhTWAuth, avatar: zhTWAvatar, booking: zhTWBooking, common: zhTWCommon, discover: zhTWDiscover, notifications: zhTWNotifications, orders: zhTWOrders, profile: zhTWProfile, reviews: zhTWReviews, search: zhTWSearch, trust: zhTWTrust, pwa: zhTWPwa, terms: zhTWTerms, banners: zhTWBanners, push: zhTWPush, exports: zhTWExports, reports: zhTWReports, stats: zhTWStats, debug: zhTWDebug, payments: zhTWPayments, apidocs: zhTWApidocs },
  'en': { account: enAccount, board: enBoard, chat: enChat, admin: enAdmin, auth: enAuth, avatar: enAvatar, booking: enBooking, common: enCommon, discover: enDiscover, notifications: enNotifications, orders: enOrders, profile: enProfile, reviews: enReviews, search: enSearch, trust: enTrust, pwa: enPwa, terms: enTerms, banners: enBanners, push: enPush, exports: enExports, reports: enReports, stats: enStats, debug: enDebug, payments: enPayments, apidocs: enApidocs },
  'ja': { account: jaAccount, board: jaBoard, chat: jaChat, admin: jaAdmin, auth: jaAuth, avatar: jaAvatar, booking: jaBooking, common: jaCommon, discover: jaDiscover, notifications: jaNotifications, orders: jaOrders, profile: jaProfile, reviews: jaReviews, search: jaSearch, trust: jaTrust, pwa: jaPwa, terms: jaTerms, banners: jaBanners, push: jaPush, exports: jaExports, reports: jaReports, stats: jaStats, debug: jaDebug, payments: jaPayments, apidocs: jaApidocs },
} as const satisfies Record<Locale, Record<string, string>>;

export type Bundle = keyof (typeof BUNDLE_URLS)['zh-TW'];
export type Area = Exclude<Bundle, 'common'>;
export const BUNDLES = Object.keys(BUNDLE_URLS['zh-TW']) as Bundle[];

/** What the layout itself needs on every page (common.json also holds the header's and e-mail banner's keys). */
export const SHELL_BUNDLES: readonly Bundle[] = ['common'];

export function isBundle(name: unknown): name is Bundle {
  return typeof name === 'string' && (BUNDLES as string[]).includes(name);
}

/** A route module's `handle`: `{ i18n: ['profile'] }` names the area files its page uses besides the shell's. */
export interface I18nHandle {
  i18n?: readonly Area[];
}
