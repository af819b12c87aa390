import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/decisions/016-group-size.md: the price is one booked slot for the whole group, said the same way in every
 * language. The locale trees must not say "daily price" (or per day, or, in Japanese, per 時間帯, which reads as
 * per hour) any more, nor keep the keys that did.
 */
const LOCALES_DIR = path.resolve(__dirname, '../../app/locales');
const LANGUAGES = ['zh-TW', 'en', 'ja'] as const;

function entries(tree: Record<string, unknown>, prefix: string): Array<[string, string]> {
  return Object.entries(tree).flatMap(([key, value]): Array<[string, string]> =>
    value && typeof value === 'object' ? entries(value as Record<string, unknown>, `${prefix}${key}.`) : [[`${prefix}${key}`, String(value)]],
  );
}

function localeEntries(language: string): Array<[string, string]> {
  const dir = path.join(LOCALES_DIR, language);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => entries(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown>, `${f.replace(/\.json$/, '')}:`));
}

const REMOVED_KEYS = ['common:guides.perSlotGroup', 'profile:view.perSlotGroup', 'common:guide.price', 'common:guides.perDay', 'profile:view.perDay'];
const OLD_WORDS: Record<(typeof LANGUAGES)[number], RegExp> = {
  'zh-TW': /每日價格|每日價|全日價格|日薪|每天的價格|一日導覽的價格/,
  // "/ day" as in "NT$2,800 / day", not the closing tag of a Trans component ("<day>…</day>").
  en: /daily price|per day|(?<!<)\/ ?day\b|one-day tour/i,
  ja: /1\s?日の料金|1\s?日料金|1\s?日あたり|日当|1\s?日ツアー|1時間帯/,
};

describe('price wording in the locales (decision 016)', () => {
  for (const language of LANGUAGES) {
    it(`${language}: no daily price, no removed keys, and the per-slot wording is there`, () => {
      const all = localeEntries(language);
      const keys = new Set(all.map(([k]) => k));
      expect(REMOVED_KEYS.filter((k) => keys.has(k) || keys.has(`${k}_one`) || keys.has(`${k}_other`))).toEqual([]);
      // The statistics' charts count bookings per day; only prices are said per slot.
      expect(all.filter(([key, value]) => !key.startsWith('stats:') && OLD_WORDS[language].test(value))).toEqual([]);
      expect(keys.has('common:guides.pricePerSlot_other')).toBe(true);
    });
  }

  it('Japanese says 枠 wherever it names what the price buys', () => {
    const ja = new Map(localeEntries('ja'));
    for (const key of ['common:guides.pricePerSlot_other', 'common:guideFields.price', 'profile:view.price', 'booking:form.perGroup']) {
      expect(ja.get(key), key).toContain('枠');
    }
  });
});
