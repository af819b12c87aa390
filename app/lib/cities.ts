// The codes are a module of their own so that forms can list them without the aliases below.
import { CITY_CODES, type CityCode } from './city-codes';

export { CITY_CODES, isCityCode, type CityCode } from './city-codes';

/**
 * Other ways people and API clients write each city, besides its code. Matching (see `cityKey`) ignores
 * case, width (NFKC), spaces, '-', '_' and '.', reads 臺 as 台, and drops a trailing 市/縣/县/県/City/County,
 * so only the bare name is listed: 'Taipei' also covers 'Taipei City', 'taipei city' and 'TAIPEI';
 * '台北' also covers 臺北, 台北市 and 臺北市. Includes the display names of the zh-TW, en and ja locales,
 * simplified Chinese, other romanisations (pinyin, older spellings) and Japanese readings in katakana.
 */
export const CITY_ALIASES: Readonly<Record<CityCode, readonly string[]>> = {
  taipei: ['台北', 'Taipei', 'Taibei', 'タイペイ', 'タイホク'],
  new_taipei: ['新北', 'New Taipei', 'Xinbei', 'Sinbei', 'シンペイ', 'ニュータイペイ'],
  keelung: ['基隆', 'Keelung', 'Jilong', 'Chilung', 'キールン', 'キイルン'],
  taoyuan: ['桃園', '桃园', 'Taoyuan', 'Taoyuen', 'トウエン', 'タオユエン'],
  hsinchu: ['新竹', 'Hsinchu', 'Xinzhu', 'Sinjhu', 'シンチク', 'シンジュウ'],
  taichung: ['台中', 'Taichung', 'Taizhong', 'Taijhong', 'タイチュウ', 'タイチョン'],
  nantou: ['南投', 'Nantou', 'Nantow', 'ナントウ'],
  chiayi: ['嘉義', '嘉义', 'Chiayi', 'Jiayi', 'Chia-i', 'カギ', 'ジアイー'],
  tainan: ['台南', 'Tainan', 'タイナン'],
  kaohsiung: ['高雄', 'Kaohsiung', 'Gaoxiong', 'Kaoshiung', 'Takao', 'カオシュン', 'タカオ', 'コウユウ'],
  pingtung: ['屏東', '屏东', 'Pingtung', 'Pingdong', 'ヘイトウ', 'ピンドン', 'ピントン'],
  yilan: ['宜蘭', '宜兰', 'Yilan', 'Ilan', 'I-lan', 'ギラン', 'イーラン'],
  hualien: ['花蓮', '花莲', 'Hualien', 'Hualian', 'Hwalien', 'カレン', 'ホワリエン', 'ファーリエン'],
  taitung: ['台東', '台东', 'Taitung', 'Taidong', 'タイトウ', 'タイトン'],
  penghu: ['澎湖', 'Penghu', 'Pescadores', 'Pescadores Islands', 'ホウコ', 'ポンフー'],
};

/** Trailing words that name the kind of place: Taipei City, 台北市, 花蓮縣, 屏東県, Chiayi County. */
const SUFFIX = /(?:city|county|市|縣|县|県)$/u;

/** The form a city name is compared in: NFKC, lower case, 臺 → 台, no spaces or separators, no suffix. */
function cityKey(input: string): string {
  const key = input
    .normalize('NFKC')
    .toLowerCase()
    .replace(/臺/gu, '台')
    .replace(/[\s\-_.·・]+/gu, '');
  const bare = key.replace(SUFFIX, '');
  return bare || key;
}

const BY_KEY: ReadonlyMap<string, CityCode> = new Map(
  CITY_CODES.flatMap((code) => [code, ...CITY_ALIASES[code]].map((name) => [cityKey(name), code] as const)),
);

/**
 * The city code a person or client meant: the code itself or a name in zh-TW, en or ja (see CITY_ALIASES).
 * Undefined when it is not one of our cities (or not a string).
 */
export function normaliseCity(input: unknown): CityCode | undefined {
  if (typeof input !== 'string') return undefined;
  const whole = input.normalize('NFKC').toLowerCase().replace(/臺/gu, '台').replace(/[\s\-_.·・]+/gu, '');
  if (FORMER_NAMES.has(whole)) return FORMER_NAMES.get(whole);
  const key = cityKey(input);
  return key ? BY_KEY.get(key) : undefined;
}

/** Names whose suffix matters: Taipei County (台北縣) became New Taipei in 2010; it is not Taipei City. */
const FORMER_NAMES: ReadonlyMap<string, CityCode> = new Map([
  ['台北縣', 'new_taipei'],
  ['台北县', 'new_taipei'],
  ['taipeicounty', 'new_taipei'],
]);
