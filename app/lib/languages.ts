// The codes are a module of their own so that forms can list them without the names and subtags below.
import { LANGUAGE_CODES, type LanguageCode } from './language-codes';

export { LANGUAGE_CODES, isLanguageCode, type LanguageCode } from './language-codes';

/**
 * The language subtags (ISO 639-1/-2/-3) of BCP 47 tags that mean one of our codes. The rest of a tag
 * (script, region, variants) does not change the language: zh-Hant-TW is zh, en-GB is en, es-419 is es.
 * Chinese extended language subtags are read too: zh-cmn → zh, zh-nan → nan, zh-hak → hak, zh-yue → none.
 */
const SUBTAGS: Readonly<Record<string, LanguageCode>> = {
  zh: 'zh', zho: 'zh', chi: 'zh', cmn: 'zh',
  nan: 'nan',
  hak: 'hak',
  en: 'en', eng: 'en',
  ja: 'ja', jpn: 'ja',
  ko: 'ko', kor: 'ko',
  fr: 'fr', fra: 'fr', fre: 'fr',
  de: 'de', deu: 'de', ger: 'de',
  es: 'es', spa: 'es',
};

/** Whole tags read as they are: legacy (grandfathered) BCP 47 tags, and `tw`, our old code for Taiwanese. */
const WHOLE_TAGS: Readonly<Record<string, LanguageCode>> = {
  tw: 'nan',
  'zh-min-nan': 'nan',
  'zh-hakka': 'hak',
  'i-hak': 'hak',
  'zh-guoyu': 'zh',
};

/**
 * Names of the languages as people write them, besides the display names of the locales (which are
 * included here): zh-TW, simplified Chinese, en, ja and the language's own name. Compared after NFKC,
 * lower case, 臺 → 台 and with spaces collapsed.
 */
export const LANGUAGE_NAMES: Readonly<Record<LanguageCode, readonly string[]>> = {
  zh: ['中文', '華語', '华语', '國語', '国语', '普通話', '普通话', '漢語', '汉语', '中國話', 'Mandarin', 'Mandarin Chinese', 'Chinese', 'Taiwanese Mandarin', '中国語', '北京語'],
  nan: ['台語', '台灣話', '台湾话', '台灣閩南語', '閩南語', '闽南语', '河洛話', '福佬話', 'Taiwanese', 'Taiwanese Hokkien', 'Hokkien', 'Min Nan', 'Minnan', 'Southern Min', '台湾語'],
  hak: ['客語', '客家語', '客家话', '客家話', 'Hakka', 'Hakka Chinese'],
  en: ['英文', '英語', '英语', 'English'],
  ja: ['日文', '日語', '日语', '日本語', 'Japanese', 'にほんご'],
  ko: ['韓文', '韓語', '韩语', '韓國語', '韓国語', 'Korean', '한국어', '조선말'],
  fr: ['法文', '法語', '法语', 'フランス語', 'French', 'Français', 'Francais'],
  de: ['德文', '德語', '德语', 'ドイツ語', 'German', 'Deutsch'],
  es: ['西班牙文', '西班牙語', '西班牙语', 'スペイン語', 'Spanish', 'Español', 'Espanol', 'Castellano'],
};

const nameKey = (name: string) => name.normalize('NFKC').toLowerCase().replace(/臺/gu, '台').replace(/\s+/gu, ' ').trim();

const BY_NAME: ReadonlyMap<string, LanguageCode> = new Map(
  LANGUAGE_CODES.flatMap((code) => LANGUAGE_NAMES[code].map((name) => [nameKey(name), code] as const)),
);

/** A well-formed BCP 47 tag, roughly: a 2-3 letter language (or `i`) and subtags of 1-8 letters or digits. */
const TAG = /^(?:[a-z]{2,3}|i)(?:-[a-z0-9]{1,8})*$/;

/**
 * Our code for a language as API clients and people write it: a BCP 47 tag (zh-TW, zh-Hant-TW, nan-TW,
 * en-GB, ja-JP, case-insensitive, '_' read as '-'), the legacy `tw`, or a name in zh-TW, en or ja
 * (台語, 客家語, English, 日本語). Undefined when it is none of our languages (or not a string).
 */
export function normaliseLanguage(input: unknown): LanguageCode | undefined {
  if (typeof input !== 'string') return undefined;
  const name = nameKey(input);
  if (!name) return undefined;
  const byName = BY_NAME.get(name);
  if (byName) return byName;
  const tag = name.replace(/_/g, '-');
  if (Object.hasOwn(WHOLE_TAGS, tag)) return WHOLE_TAGS[tag];
  if (!TAG.test(tag)) return undefined;
  const [language, next] = tag.split('-');
  // Chinese with an extended language subtag names the variety: zh-cmn, zh-nan, zh-hak (zh-yue is not ours).
  if (language === 'zh' && next && /^[a-z]{3}$/.test(next)) return next === 'cmn' || next === 'nan' || next === 'hak' ? SUBTAGS[next] : undefined;
  return Object.hasOwn(SUBTAGS, language!) ? SUBTAGS[language!] : undefined;
}
