import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import en from '~/locales/en/common.json';
import ja from '~/locales/ja/common.json';
import zhTW from '~/locales/zh-TW/common.json';
import { MASK, maskContacts } from '~/lib/contact-mask';
import { boardPostSchema, boardReplySchema } from '~/schemas/board';
import { bookingSchema } from '~/schemas/booking';
import { nameField } from '~/schemas/field-rules';
import { messageSendSchema } from '~/schemas/chat';
import { CONTACTS, HARMLESS } from './contact-mask-corpus';

/** Issue 23: contact details and their common disguises are masked; prices, dates, times and order numbers are not. */
const MASKED: Array<[string, string]> = [
  ['call me 0912345678', `call me ${MASK}`],
  ['電話 0912 345 678 謝謝', `電話 ${MASK} 謝謝`],
  ['0912-345-678', MASK],
  ['0912.345.678', MASK],
  ['+886 912 345 678', MASK],
  ['+886-912-345-678 ok', `${MASK} ok`],
  ['(02) 2345-6789', MASK],
  ['02-23456789', MASK],
  ['０９１２３４５６７８', MASK],
  ['打給我 ０９１２ ３４５ ６７８', `打給我 ${MASK}`],
  ['零九一二三四五六七八', MASK],
  ['0 9 1 2 3 4 5 6 7 8', MASK],
  ['mei.lin@example.com', MASK],
  ['寫信到 mei@gmail.com 吧', `寫信到 ${MASK} 吧`],
  ['MEI@GMAIL.COM', MASK],
  ['ｍｅｉ＠ｇｍａｉｌ．ｃｏｍ', MASK],
  ['abc at gmail dot com', MASK],
  ['abc(at)gmail(dot)com', MASK],
  ['abc [at] gmail [dot] com', MASK],
  ['abc 小老鼠 gmail 點 com', MASK],
  ['line: abc123', MASK],
  ['LINE ID: tour_guide.tw', MASK],
  ['my line id abc123 thanks', `my ${MASK} thanks`],
  ['ｌｉｎｅ：ａｂｃ１２３', MASK],
  ['加賴 abc123', MASK],
  ['可以加賴嗎', `可以${MASK}嗎`],
  ['加我line: meilin', MASK],
  ['私賴我', `${MASK}我`],
  ['賴：meilin88', MASK],
  ['wechat: meilin88', MASK],
  ['微信：meilin88', MASK],
  ['ig @meilin.tw', MASK],
  ['official account @tourtw88', `official account ${MASK}`],
  ['see https://example.com/page?x=1 now', `see ${MASK} now`],
  ['www.example.com.tw', MASK],
  ['line.me/ti/p/abcdef', MASK],
  ['my site: meilin.tw', `my site: ${MASK}`],
  ['http://192.168.1.1:8080', MASK],
  ['mail me: a.b+c@d-e.org or call 0912345678', `mail me: ${MASK} or call ${MASK}`],
  ['whatsapp: +886912345678', MASK],
];

const UNTOUCHED: string[] = [
  'NT$2,500 for a full day',
  '價格 NT$12,000，含交通',
  '2026-12-01',
  '我們 2026-12-01 到 2026-12-03 在台北',
  '2026/12/24 下午見',
  '2026.12.01',
  '訂單 #12345 已確認',
  'order 1234567 is fine',
  '10:00-12:00 meet at the station',
  'we are 4 people, 2 adults and 2 kids',
  'The line at the museum was long.',
  'Is it stroller-friendly?',
  '可以半天嗎？',
  '一二三木頭人',
  'We arrive at 9 and leave at 5',
  'e-mail me the plan here in chat please',
  '12/24-12/26',
];

describe('contact masking', () => {
  it.each(MASKED)('masks %j', (input, expected) => {
    expect(maskContacts(input)).toEqual({ text: expected, masked: true });
  });

  it.each(UNTOUCHED)('leaves %j alone', (input) => {
    expect(maskContacts(input)).toEqual({ text: input, masked: false });
  });

  it('has at least 40 cases', () => {
    expect(MASKED.length + UNTOUCHED.length).toBeGreaterThanOrEqual(40);
  });
});

/**
 * Issue 31: the corpus (tests/unit/contact-mask-corpus.ts). Every contact is masked (none of its pieces survives);
 * every harmless text stays exactly as written. The counts are printed for the decision record.
 */
describe('contact masking corpus', () => {
  it('has at least 100 contacts and 100 harmless texts', () => {
    expect(CONTACTS.length).toBeGreaterThanOrEqual(100);
    expect(HARMLESS.length).toBeGreaterThanOrEqual(100);
  });

  it('masks every contact: no false negatives', () => {
    const missed = CONTACTS.filter(({ text, pieces }) => {
      const shown = maskContacts(text);
      return !shown.masked || pieces.some((piece) => shown.text.includes(piece));
    }).map(({ text }) => `${JSON.stringify(text)} → ${JSON.stringify(maskContacts(text).text)}`);
    console.info(`contact-mask corpus: ${CONTACTS.length - missed.length} of ${CONTACTS.length} contacts masked, ${missed.length} missed`);
    expect(missed).toEqual([]);
  });

  it('leaves every harmless text untouched: the false-positive count', () => {
    const touched = HARMLESS.filter((text) => maskContacts(text).text !== text || maskContacts(text).masked).map(
      (text) => `${JSON.stringify(text)} → ${JSON.stringify(maskContacts(text).text)}`,
    );
    console.info(`contact-mask corpus: ${touched.length} false positives among ${HARMLESS.length} harmless texts`);
    expect(touched).toEqual([]);
  });
});

/** Issue 31: message text refuses format characters at input, as it refuses control characters. */
describe('message text refuses format characters', () => {
  const FIELDS: Array<[string, z.ZodType, (text: string) => Record<string, unknown>, string]> = [
    ['a chat message', messageSendSchema, (text) => ({ text, clientId: 'c-1' }), 'text'],
    ['a board post', boardPostSchema, (body) => ({ city: 'taipei', languages: ['zh'], body }), 'body'],
    ['a board reply', boardReplySchema, (body) => ({ body }), 'body'],
    ['a booking note', bookingSchema, (note) => ({ guideId: 1, date: '2099-01-01', timeSlot: 'morning', numberOfPeople: 2, note, termsAccepted: true }), 'note'],
  ];
  const issues = (schema: z.ZodType, input: unknown, field: string) => {
    const result = schema.safeParse(input);
    return result.success ? [] : result.error.issues.filter((i) => i.path[0] === field).map((i) => i.message);
  };
  const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\u00ad', '\ufeff', '\u202e', '\u2066', '\u180e', '\u{e0041}'];

  it.each(FIELDS)('%s: a format character between digits is refused with validation.formatCharacters', (_, schema, body, field) => {
    for (const invisible of INVISIBLE) {
      expect(issues(schema, body(`打給我 0912${invisible}345678`), field), JSON.stringify(invisible)).toEqual(['validation.formatCharacters']);
    }
  });

  it.each(FIELDS)('%s: emoji made with joiners and flag tags, line breaks and plain text are accepted', (_, schema, body, field) => {
    for (const text of ['👨‍👩‍👧 家族旅行', '👩🏽‍💻 ok', '🏳️‍🌈', '🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}', '第一行\n第二行', 'NT$3,000 兩天一夜']) {
      expect(issues(schema, body(text), field), JSON.stringify(text)).toEqual([]);
    }
  });

  it('the message is translated in zh-TW, en and ja', () => {
    for (const locale of [zhTW, en, ja]) expect(locale.validation.formatCharacters).toMatch(/\S/);
  });
});

/** Issue 31: a name is shown before any booking, so it may not carry contact details (decision 034). */
describe('names refuse contact details', () => {
  it.each(['小美 0912-345-678', '小美 0912/345/678', 'Amy (LINE: amy_tw88)', '阿明 賴 ID 是 ming88', 'amy@gmail.com', 'amy@gmail。com', '@amytour88', 'lin.ee/AbCd12'])('refuses %j', (name) => {
    const result = nameField.safeParse(name);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['validation.nameContact']);
  });

  it.each(['王小明', 'Amy Chen', 'Line Huang', '導遊 01', '陳 一二', 'Ian O\'Neil', '賴美玲'])('accepts %j', (name) => {
    expect(nameField.safeParse(name).success).toBe(true);
  });

  it('the message is translated in zh-TW, en and ja', () => {
    for (const locale of [zhTW, en, ja]) expect(locale.validation.nameContact).toMatch(/\S/);
  });
});
