import { CITY_ALIASES, isCityCode } from './cities';

/**
 * The one normaliser of keyword search (issue 9): the indexed `users.search_text` and every query are passed
 * through `normaliseSearchText`, so both sides read alike whatever the writer typed: NFKC (full-width Ａ１ →
 * A1, half-width ｶﾅ → カナ), lower case, and one form of characters Chinese and Japanese writers spell two
 * ways (臺 → 台, 灣/湾 → 灣, ...). Pure: the browser may use it too.
 */

/** Variant → the form we keep. Traditional forms used in Taiwan win, except 台 (far more common than 臺). */
const VARIANTS: Readonly<Record<string, string>> = {
  臺: '台',
  湾: '灣',
  温: '溫',
  黄: '黃',
  県: '縣',
  区: '區',
  駅: '站',
  歩: '步',
  楽: '樂',
  気: '氣',
  観: '觀',
  鉄: '鐵',
  麺: '麵',
  麪: '麵',
  峯: '峰',
  裏: '裡',
  着: '著',
  衞: '衛',
  羣: '群',
  衆: '眾',
  爲: '為',
  啓: '啟',
  鷄: '雞',
  竜: '龍',
  国: '國',
  来: '來',
  芸: '藝',
  沢: '澤',
  浜: '濱',
  広: '廣',
  鶏: '雞',
  様: '樣',
  与: '與',
  斎: '齋',
  戸: '戶',
};

const VARIANT_PATTERN = new RegExp(`[${Object.keys(VARIANTS).join('')}]`, 'gu');

/** NFKC, lower case, one spelling of variant characters, runs of white space as one space, trimmed. */
export function normaliseSearchText(input: string): string {
  return input
    .normalize('NFKC')
    .toLowerCase()
    .replace(VARIANT_PATTERN, (c) => VARIANTS[c] ?? c)
    .replace(/\s+/gu, ' ')
    .trim();
}

/** The words of a keyword query, normalised; every one must match (a guide matching 台北 and 美食). */
export function searchTerms(keyword: string | undefined): string[] {
  if (!keyword) return [];
  return [...new Set(normaliseSearchText(keyword).split(' ').filter(Boolean))].slice(0, 8);
}

/** A term as a LIKE pattern that matches it anywhere, with `%`, `_` and `\` taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;
}

export interface SearchableGuide {
  name: string;
  bio?: string | null;
  city?: string | null;
  description?: string | null;
  headline?: string | null;
  localized?: Partial<Record<string, { headline?: string; description?: string }>> | null;
}

/** What keyword search reads for one guide: name, bio, city names in every language, descriptions and headlines. */
export function guideSearchText(guide: SearchableGuide): string {
  const parts = [guide.name, guide.bio, guide.headline, guide.description];
  if (guide.city && isCityCode(guide.city)) parts.push(guide.city.replace(/_/gu, ' '), ...CITY_ALIASES[guide.city]);
  for (const text of Object.values(guide.localized ?? {})) parts.push(text?.headline, text?.description);
  return normaliseSearchText(parts.filter((p): p is string => Boolean(p)).join(' \n '));
}
