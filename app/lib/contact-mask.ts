/**
 * Contact masking (issue 23, hardened in issue 31; docs/decisions/034-contact-masking.md): until a traveler has a
 * confirmed order with a guide, phone numbers, e-mail addresses, LINE ids, other messenger handles and URLs in
 * what one shows the other (chat, board, booking note) are masked, so that payment and reviews stay on the
 * platform. Pure and browser-safe; the stored text is never changed (admins read the original).
 *
 * Detection runs on a folded copy of the text: NFKC, lower case, format characters and other invisible code points
 * dropped, every decimal-digit script and Chinese numerals turned into ASCII digits. The copy keeps, for each of
 * its code units, where in the original it came from, so spans found in the copy are masked at the same places of
 * the original (with whatever invisible characters lay inside them).
 */
export const MASK = '•••';

/** Chinese numerals written as digits, formal ones, simplified ones, and the radio words (洞 0, 幺 1, 拐 7, 勾 9). */
const CHINESE_DIGITS: Readonly<Record<string, string>> = {
  〇: '0', 零: '0', 洞: '0',
  一: '1', 壹: '1', 幺: '1',
  二: '2', 兩: '2', 两: '2', 貳: '2', 贰: '2',
  三: '3', 參: '3', 叁: '3',
  四: '4', 肆: '4',
  五: '5', 伍: '5',
  六: '6', 陸: '6', 陆: '6',
  七: '7', 柒: '7', 拐: '7',
  八: '8', 捌: '8',
  九: '9', 玖: '9', 勾: '9',
};

/** What leaves no mark, or only decorates the character before it: dropped from the copy. */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Mn}\p{Me}]/u;
const DECIMAL_DIGIT = /\p{Nd}/u;

/**
 * The value of a decimal digit of any script. Unicode assigns decimal digits only in runs of ten, 0 to 9 in
 * order, so the value is the count of digits just before it in its run, modulo ten.
 */
function digitValue(codePoint: number): number {
  let before = 0;
  while (before < 100 && DECIMAL_DIGIT.test(String.fromCodePoint(codePoint - before - 1))) before++;
  return before % 10;
}

const folded = new Map<string, string>();
const FOLD_CACHE_MAX = 20_000;

/** One code point of the original as it reads in the copy (possibly several characters, possibly none). */
function foldCodePoint(ch: string): string {
  const known = folded.get(ch);
  if (known !== undefined) return known;
  let out = '';
  if (CHINESE_DIGITS[ch]) out = CHINESE_DIGITS[ch];
  else if (!INVISIBLE.test(ch)) {
    for (const c of ch.normalize('NFKC').toLowerCase()) {
      if (INVISIBLE.test(c)) continue;
      out += c >= '0' && c <= '9' ? c : DECIMAL_DIGIT.test(c) ? String(digitValue(c.codePointAt(0)!)) : c;
    }
  }
  if (folded.size < FOLD_CACHE_MAX) folded.set(ch, out);
  return out;
}

interface Folded {
  text: string;
  /** For each code unit of `text`: where the original character it came from starts and ends. */
  from: number[];
  to: number[];
}

function fold(original: string): Folded {
  let text = '';
  const from: number[] = [];
  const to: number[] = [];
  let at = 0;
  for (const ch of original) {
    const out = foldCodePoint(ch);
    for (let k = 0; k < out.length; k++) {
      from.push(at);
      to.push(at + ch.length);
    }
    text += out;
    at += ch.length;
  }
  return { text, from, to };
}

/* ------------------------------------------------------------------ what is matched in the copy */

const DOT_CHAR = '[.。]'; // NFKC already made ． and ｡ into . and 。; 。 is what a Chinese keyboard types.
const AT = String.raw`(?:\s?@\s?|\s*[([{<]\s*(?:at|@|小老鼠)\s*[)\]}>]\s*|\s+at\s+|\s*小?老鼠\s*)`;
// A written dot stands alone or between two spaces ("gmail . com"); "Zhuzihu. After" ends a sentence.
const DOT = String.raw`(?:${DOT_CHAR}|\s${DOT_CHAR}\s|\s*[([{<]\s*(?:dot|點|点)\s*[)\]}>]\s*|\s+dot\s+|\s*[點点]\s*)`;
const LABEL = String.raw`[a-z0-9](?:[a-z0-9-]*[a-z0-9])?`;
/** Endings of bare domains worth masking without a scheme (lin.ee and linktr.ee end in ee). */
const TLD = String.raw`(?:com|net|org|tw|me|ee|io|jp|cc|co|hk|cn|kr|sg|us|uk|info|biz|xyz|ly|gl|app|page|link|site|shop|store|top|vip|club|online|bio)`;

/** Messengers as people name them in Taiwan, Japan and elsewhere (L I N E spelled out, 賴 for LINE, ...). */
const APP = String.raw`(?:l[\s.・]?i[\s.・]?n[\s.・]?e|賴|赖|ライン|らいん|ㄌㄞ|wechat|weixin|微信|wx|vx|ig|instagram|insta|インスタ|telegram|tg|電報|电报|whatsapp|kakao(?:talk)?|카톡|skype|facebook|fb|messenger|discord|snapchat|viber|qq|gmail|yahoo|hotmail|outlook|信箱|郵箱|邮箱|メール)`;
/** Words that say "the id is": one of them must stand between the messenger and a plain handle. */
const SAYS = String.raw`(?:id|帳號|帐号|账号|帳戶|账户|號碼|号码|號|号|是|為|为|[:=]|は|搜尋|搜索|搜|@|用戶名|名稱|名字|아이디|handle|username|user)`;
/** Words that may stand around them. */
const FILLER = String.raw`(?:\s|的|也|就|都|請|请|叫|の|を|です|is|→|->|-|~)`;
/** A handle: letters, digits and . _ - inside, at least 3 long, with a letter in it. */
const WORD_HANDLE = String.raw`(?=[a-z0-9._-]*[a-z])[a-z0-9][a-z0-9._-]*[a-z0-9]`;
/** A handle after a messenger's name: also an id of 6 or more digits (QQ, some LINE ids). */
const HANDLE = String.raw`(?:${WORD_HANDLE}|\d[\d._-]{4,}\d)`;
/** A handle that looks like one without a word before it: a letter, and a digit or an inner . or _. */
const MARKED_HANDLE = String.raw`(?=[a-z0-9._-]*[a-z])(?=[a-z0-9._-]*(?:\d|[._][a-z0-9]))[a-z0-9][a-z0-9._-]*[a-z0-9]`;
const APP_START = String.raw`(?<![a-z0-9])${APP}(?=id|[^a-z0-9]|$)`;

/**
 * Phone numbers: 8 or more digits (or English number words) with short separators of any kind between them; a
 * run does not go through letters, currency signs, '=', '%', '#' or '@' (what no phone number has inside).
 */
const NUMBER_WORD = '(?<![a-z])(?:zero|one|two|three|four|five|six|seven|eight|nine)(?![a-z])';
const DIGIT = String.raw`(?:\d|${NUMBER_WORD})`;
const SEPARATOR = String.raw`(?:[^\p{L}\p{N}\p{Sc}=%#@]|[ーｰ])`; // ー is a letter, but Japanese types it as a dash
const PHONE_RUN = new RegExp(String.raw`(?:[+(]\s*){0,2}(?<!\d)${DIGIT}(?:${SEPARATOR}{0,5}${DIGIT})*`, 'gu');
const PHONE_DIGITS_MIN = 8;

/**
 * A run of digits that is only dates, times, amounts and years, one after another (2026/12/24 10:00,
 * 12/24-12/26, 3,000-4,000, 1500/3000, 2025-2026, 25.0478, 121.5170): not a phone number. Next to a date, a time
 * or an amount written with a comma or a point, a few short numbers are counts or flight numbers ("BR 198，12/24
 * 15:40", "12/24~12/26 三天"), as long as they hold fewer digits than a phone number could hide.
 */
const DAY = '(?:0?[1-9]|[12]\\d|3[01])';
const MONTH = '(?:0?[1-9]|1[0-2])';
const YEAR = '(?:19|20)\\d\\d';
/** Numbers written with a sign inside them, tried in this order at each place: the first that fits is taken. */
const WRITTEN_ITEMS = [
  `${YEAR}-${MONTH}-${DAY}`, // 2026-12-01
  `${YEAR}/${MONTH}/${DAY}`, // 2026/12/01
  `${YEAR}\\.${MONTH}\\.${DAY}`, // 2026.12.01
  `${YEAR}[-/.]${MONTH}`, // 2026/12
  `${MONTH}/${DAY}`, // 12/24
  '(?:[01]?\\d|2[0-4]):[0-5]\\d(?::[0-5]\\d)?', // 10:00, 9:30:00
  '[1-9]\\d{0,2}(?:,\\d{3})+', // 3,000 and 12,000,000
  '(?:0|[1-9]\\d{0,2})\\.\\d{1,7}', // 3.5, 25.0478 (a map position)
];
const BARE_ITEMS = [
  YEAR, // 2026
  '[1-9]\\d{0,3}0', // 1500, 3000, 250: round amounts
];
const COUNT = '[1-9]\\d{0,2}';
const COUNT_DIGITS_MAX = 4;
/** Each item, anchored where the scan stands, ending where its digits end. */
const item = (source: string) => new RegExp(`(?:${source})(?![\\d])`, 'y');
const WRITTEN = WRITTEN_ITEMS.map(item);
const BARE = BARE_ITEMS.map(item);
const COUNTS = [item(COUNT)];
const BETWEEN = new RegExp(`${SEPARATOR}{1,5}`, 'uy');

/**
 * Whether the run reads, start to end, as these items with separators between them; with counts, also how many
 * digits the counts hold and whether a written item was among them.
 */
function readsAs(run: string, counts: boolean): { whole: boolean; written: boolean; countDigits: number } {
  const items = [...WRITTEN, ...BARE, ...(counts ? COUNTS : [])];
  let at = 0;
  let written = false;
  let countDigits = 0;
  for (;;) {
    const found = items.find((re) => {
      re.lastIndex = at;
      return re.test(run);
    });
    if (!found) return { whole: false, written, countDigits };
    written ||= WRITTEN.includes(found);
    if (COUNTS.includes(found)) countDigits += found.lastIndex - at;
    at = found.lastIndex;
    if (at === run.length) return { whole: true, written, countDigits };
    BETWEEN.lastIndex = at;
    if (!BETWEEN.test(run)) return { whole: false, written, countDigits };
    at = BETWEEN.lastIndex;
  }
}

const NUMBER_WORDS = new RegExp(NUMBER_WORD, 'g');

function isPhone(run: string): boolean {
  const digits = run.replace(NUMBER_WORDS, '0').replace(/\D/g, '').length;
  if (digits < PHONE_DIGITS_MIN) return false;
  // A bracket before a date is not a phone's area code; a leading + is always a phone's.
  const body = run.replace(/^[(\s]+/, '');
  if (readsAs(body, false).whole) return false;
  const withCounts = readsAs(body, true);
  return !(withCounts.whole && withCounts.written && withCounts.countDigits <= COUNT_DIGITS_MAX);
}

const PATTERNS: readonly RegExp[] = [
  // E-mail, also written out: "abc at gmail dot com", "abc(at)gmail(dot)com", "abc@gmail。com", "abc 小老鼠 gmail 點 com".
  new RegExp(String.raw`(?<![a-z0-9._%+-])[a-z0-9][a-z0-9._%+-]*${AT}${LABEL}(?:${DOT}${LABEL})*${DOT}[a-z]{2,}`, 'g'),
  // URLs with a scheme or www., and bare domains with a common ending (line.me/ti/p/…, lin.ee/AbCd12, abc.com.tw).
  /\b(?:https?:\/\/|www[.。])[^\s<>"'，。、）)]+/g,
  new RegExp(String.raw`(?<![a-z0-9.。-])${LABEL}(?:${DOT_CHAR}[a-z0-9-]+)*${DOT_CHAR}${TLD}(?![a-z0-9])(?:\/[^\s<>"'，。、）)]*)?`, 'g'),
  // "加賴", "加我line: abc", "私賴我", "加我微信 meilin": asking to move elsewhere, with the handle if one follows.
  new RegExp(String.raw`(?:加我?(?:的\s*)?${APP}|(?:私|密)\s*(?:賴|赖|line|ㄌㄞ))(?:${FILLER}{0,3}(?:${SAYS}${FILLER}{0,3}){0,3}@?${HANDLE})?`, 'g'),
  // A messenger, a word that says "the id is", then the handle: "我的line是abc123", "LINE ID 是 chen_guide88", "IG：@meilin".
  new RegExp(String.raw`${APP_START}${FILLER}{0,4}(?:${SAYS}${FILLER}{0,3}){1,3}[@+]?${HANDLE}`, 'gu'),
  // A messenger and a handle that looks like one: "ig meilin.tw", "line chen_88", "my line is chen88".
  new RegExp(String.raw`${APP_START}${FILLER}{1,4}@?${MARKED_HANDLE}`, 'gu'),
  // "我的ID是 chen_guide88", "ID: tour.tw".
  new RegExp(String.raw`(?<![a-z0-9])id\s*(?:是|為|为|[:=]|は)\s*${WORD_HANDLE}`, 'g'),
  // A bare handle of the kind LINE official accounts use: "@abc123".
  /(?<![a-z0-9.])@[a-z0-9][a-z0-9._-]{3,}/g,
];

function spans(text: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const pattern of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const value = match[0].trimEnd();
      found.push([match.index!, match.index! + value.length]);
    }
  }
  for (const match of text.matchAll(PHONE_RUN)) {
    if (isPhone(match[0])) found.push([match.index!, match.index! + match[0].length]);
  }
  found.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const span of found) {
    const last = merged[merged.length - 1];
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([...span]);
  }
  return merged;
}

/** True when the text holds something masking would hide. */
export function hasContactDetails(text: string): boolean {
  return spans(fold(text).text).length > 0;
}

/** The text with every contact detail replaced by MASK, and whether anything was. */
export function maskContacts(text: string): { text: string; masked: boolean } {
  const copy = fold(text);
  const found = spans(copy.text);
  if (found.length === 0) return { text, masked: false };
  let out = '';
  let at = 0;
  for (const [start, end] of found) {
    const from = copy.from[start]!;
    if (from < at) continue; // inside what is already masked (one original character folded to several)
    out += text.slice(at, from) + MASK;
    at = copy.to[end - 1]!;
  }
  return { text: out + text.slice(at), masked: true };
}
