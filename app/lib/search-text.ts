import { CITY_ALIASES, CITY_CODES, isCityCode, normaliseCity, type CityCode } from './cities';

/**
 * The one normaliser of keyword search (issue 9): the indexed `users.search_text` and every query are passed
 * through `normaliseSearchText`, so both sides read alike whatever the writer typed: NFKC (full-width Ａ１ →
 * A1, half-width ｶﾅ → カナ), lower case, and one form of characters Chinese and Japanese writers spell two
 * ways (臺 → 台, 灣/湾 → 灣, ...). Pure: the browser may use it too.
 */

/** Variant → the form we keep. Traditional forms used in Taiwan win, except 台 (far more common than 臺). */
export const VARIANTS: Readonly<Record<string, string>> = {
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

/**
 * The words of a keyword query, normalised; every one must match (a guide matching 台北 and 美食). Words that
 * together name a city stay one term ('New Taipei', 'Taipei City', 'Pescadores Islands'): 'new taipei' is
 * New Taipei, not the words 'new' and 'taipei' (which would find Taipei).
 */
export function searchTerms(keyword: string | undefined): string[] {
  if (!keyword) return [];
  const words = normaliseSearchText(keyword).split(' ').filter(Boolean);
  const terms: string[] = [];
  for (let i = 0; i < words.length; ) {
    const length = [3, 2].find((n) => i + n <= words.length && normaliseCity(words.slice(i, i + n).join(' ')));
    const take = length ?? 1;
    terms.push(words.slice(i, i + take).join(' '));
    i += take;
  }
  return [...new Set(terms)].slice(0, 8);
}

/** A city's names as the search text holds them (see `guideSearchText`): its code with spaces and its aliases. */
function citySearchNames(city: CityCode): string[] {
  return [...new Set([city.replace(/_/gu, ' '), ...CITY_ALIASES[city]].map(normaliseSearchText))];
}

/** A keyword that names a city: what it matches instead of its own letters. */
export interface CityTerm {
  city: CityCode;
  /** The city's names in every language: the term finds a text holding any of them (Taipei finds what 台北 finds). */
  names: string[];
  /**
   * Names of other cities that contain one of `names` ('new taipei' contains 'taipei', ニュータイペイ contains
   * タイペイ), longest first: a match inside one of them is that other city, so it does not count.
   */
  others: string[];
}

/**
 * What a keyword term means when it names one of our cities (in any language or spelling, with or without
 * 市/縣/City), else undefined. Keyword search and `matchesKeyword` both read it, so the database and this
 * module agree on which texts a city term finds.
 */
export function cityTerm(term: string): CityTerm | undefined {
  const city = normaliseCity(term);
  if (!city) return undefined;
  const names = citySearchNames(city);
  const others = CITY_CODES.filter((other) => other !== city)
    .flatMap(citySearchNames)
    .filter((other) => names.some((name) => other.includes(name)))
    .sort((a, b) => b.length - a.length);
  return { city, names, others: [...new Set(others)] };
}

/** The other cities' names that would hide `name` inside them, longest first (strip these before looking for it). */
export function namesContaining(term: CityTerm, name: string): string[] {
  return term.others.filter((other) => other.includes(name));
}

/** Stands in for another city's name taken out of a text; no city name contains it. */
export const CITY_NAME_GAP = '|';

/**
 * Whether a normalised search text matches one term of `searchTerms`: the term anywhere in it, or, for a term
 * naming a city, one of the city's names that is not part of another city's name. The pure twin of the
 * search service's SQL condition.
 */
export function matchesKeyword(text: string, term: string): boolean {
  const city = cityTerm(term);
  if (!city) return text.includes(term);
  return city.names.some((name) =>
    namesContaining(city, name)
      .reduce((rest, other) => rest.replaceAll(other, CITY_NAME_GAP), text)
      .includes(name),
  );
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
