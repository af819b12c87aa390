import en from '~/locales/en/common.json';
import ja from '~/locales/ja/common.json';
import zhTW from '~/locales/zh-TW/common.json';
import type { Locale } from './config';

/** All translations, bundled into the server. The browser receives only its own language (root loader). */
export const resources: Record<Locale, { common: typeof zhTW }> = {
  'zh-TW': { common: zhTW },
  en: { common: en },
  ja: { common: ja },
};
