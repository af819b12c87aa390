/**
 * Contact masking (issue 23): until a traveler has a confirmed order with a guide, phone numbers, e-mail
 * addresses, LINE ids, other messenger handles and URLs in their messages (and on the message board) are shown
 * masked, so that payment and reviews stay on the platform. Pure and browser-safe; the stored text is never
 * changed (admins read the original).
 *
 * Detection runs on a folded copy of the text that has exactly one code unit per code unit of the original:
 * full-width forms (０９１２, ＠, ．) become ASCII, Chinese numerals (〇一二…九) become digits, letters become
 * lower case. Spans found in the copy are masked at the same positions of the original.
 */
export const MASK = '•••';

const CHINESE_DIGITS: Readonly<Record<string, string>> = {
  〇: '0', 零: '0', 一: '1', 二: '2', 三: '3', 四: '4', 五: '5', 六: '6', 七: '7', 八: '8', 九: '9',
  壹: '1', 貳: '2', 參: '3', 肆: '4', 伍: '5', 陸: '6', 柒: '7', 捌: '8', 玖: '9',
};

function fold(text: string): string {
  let out = '';
  for (const unit of text.split('')) {
    const digit = CHINESE_DIGITS[unit];
    if (digit) {
      out += digit;
      continue;
    }
    const normal = unit.normalize('NFKC').toLowerCase();
    out += normal.length === 1 ? normal : unit.toLowerCase().length === 1 ? unit.toLowerCase() : unit;
  }
  return out;
}

const AT = String.raw`(?:@|\s*[([]\s*at\s*[)\]]\s*|\s+at\s+|\s*小老鼠\s*)`;
const DOT = String.raw`(?:\.|\s*[([]\s*dot\s*[)\]]\s*|\s+dot\s+|\s*點\s*)`;
const LABEL = String.raw`[a-z0-9](?:[a-z0-9-]*[a-z0-9])?`;

const PATTERNS: readonly RegExp[] = [
  // E-mail, also written out: "abc at gmail dot com", "abc(at)gmail(dot)com", "abc 小老鼠 gmail 點 com".
  new RegExp(String.raw`[a-z0-9][a-z0-9._%+-]*${AT}${LABEL}(?:${DOT}${LABEL})*${DOT}[a-z]{2,}`, 'g'),
  // URLs with a scheme or www., and bare domains with a common ending (line.me/ti/p/…, abc.com.tw).
  /\b(?:https?:\/\/|www\.)[^\s<>"'，。、）)]+/g,
  /\b[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9-]+)*\.(?:com|net|org|tw|me|io|jp|cc|co|info|biz|xyz|ly|gl|app|page|link)\b(?:\/[^\s<>"'，。、）)]*)?/g,
  // LINE and other messengers with a handle: "line: abc", "LINE ID abc_123", "加賴 abc", "wechat：abc", "ig @abc".
  /(?:加我?|私|密)\s*(?:賴|line|ㄌㄞ)(?:\s*(?:id)?\s*[:：=]?\s*@?[a-z0-9][a-z0-9._-]{2,})?/g,
  /(?:line|賴|wechat|微信|whatsapp|telegram|instagram|ig|kakao|skype|facebook|fb)\s*(?:id)?\s*[:：=]\s*[@+]?[a-z0-9][a-z0-9._-]{2,}/g,
  /(?:line|賴)\s*id\s*@?[a-z0-9][a-z0-9._-]{2,}/g,
  /(?:line|wechat|微信|ig|instagram|telegram)\s*@[a-z0-9][a-z0-9._-]{2,}/g,
  // A bare handle of the kind LINE official accounts use: "@abc123".
  /(?<![a-z0-9.])@[a-z0-9][a-z0-9._-]{3,}/g,
  // Phone numbers: 8 to 15 digits with spaces, dashes, dots or brackets between them, an optional leading +.
  /(?<![\d])\+?\(?\d(?:[\s\-.()]{0,3}\d){7,14}(?![\d])/g,
];

/** A date written as digits (2026-12-01, 2026.12.01, 2026/12/01) is not a phone number. */
const DATE_LIKE = /^\d{4}\s*[-./]\s*\d{1,2}\s*[-./]\s*\d{1,2}$/;

function spans(folded: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const pattern of PATTERNS) {
    for (const match of folded.matchAll(pattern)) {
      const text = match[0].trimEnd();
      if (pattern === PATTERNS[PATTERNS.length - 1] && DATE_LIKE.test(text)) continue;
      found.push([match.index!, match.index! + text.length]);
    }
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
  return spans(fold(text)).length > 0;
}

/** The text with every contact detail replaced by MASK, and whether anything was. */
export function maskContacts(text: string): { text: string; masked: boolean } {
  const found = spans(fold(text));
  if (found.length === 0) return { text, masked: false };
  let out = '';
  let at = 0;
  for (const [start, end] of found) {
    out += text.slice(at, start) + MASK;
    at = end;
  }
  return { text: out + text.slice(at), masked: true };
}
