import fs from 'node:fs';
import path from 'node:path';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CITY_ALIASES, CITY_CODES, normaliseCity } from '~/lib/cities';
import { LANGUAGE_CODES, LANGUAGE_NAMES, normaliseLanguage } from '~/lib/languages';
import { loginSchema, registerSchema, verifyEmailSchema } from '~/schemas/account-forms';
import {
  cityField,
  descriptionField,
  emailCodeField,
  emailField,
  languagesField,
  nameField,
  newPasswordField,
  priceField,
} from '~/schemas/field-rules';
import { guideProfileSchema, travelerProfileSchema } from '~/schemas/profile';

/**
 * Inputs as API clients send them (issue 7, point 4): city names and BCP 47 tags normalised to our codes,
 * strict prices, names without invisible tricks, no control characters in any text, bounded passwords.
 */

/** The messages (i18n keys) of a failed parse, or the parsed value. */
function parse(schema: z.ZodType, value: unknown): { ok: true; value: unknown } | { ok: false; messages: string[] } {
  const result = schema.safeParse(value);
  return result.success ? { ok: true, value: result.data } : { ok: false, messages: result.error.issues.map((i) => i.message) };
}
const value = (schema: z.ZodType, input: unknown) => {
  const result = parse(schema, input);
  if (!result.ok) throw new Error(`${JSON.stringify(input)} refused: ${result.messages.join(', ')}`);
  return result.value;
};
const messages = (schema: z.ZodType, input: unknown) => {
  const result = parse(schema, input);
  if (result.ok) throw new Error(`${JSON.stringify(input)} accepted as ${JSON.stringify(result.value)}`);
  return result.messages;
};

const LOCALES = ['zh-TW', 'en', 'ja'] as const;
const common = Object.fromEntries(
  LOCALES.map((l) => [l, JSON.parse(fs.readFileSync(path.resolve(`app/locales/${l}/common.json`), 'utf8'))]),
) as Record<(typeof LOCALES)[number], { validation: Record<string, string>; languages: Record<string, string>; cities: Record<string, string> }>;

describe('city', () => {
  it.each([
    ['taipei', 'taipei'],
    ['台北', 'taipei'],
    ['臺北', 'taipei'],
    ['台北市', 'taipei'],
    ['臺北市', 'taipei'],
    ['Taipei', 'taipei'],
    ['Taipei City', 'taipei'],
    ['taipei city', 'taipei'],
    ['  TAIPEI  ', 'taipei'],
    ['Ｔａｉｐｅｉ', 'taipei'],
    ['タイペイ', 'taipei'],
    ['new_taipei', 'new_taipei'],
    ['新北', 'new_taipei'],
    ['新北市', 'new_taipei'],
    ['New Taipei', 'new_taipei'],
    ['New Taipei City', 'new_taipei'],
    ['new-taipei', 'new_taipei'],
    ['台中', 'taichung'],
    ['臺中', 'taichung'],
    ['台中市', 'taichung'],
    ['Taichung', 'taichung'],
    ['台南', 'tainan'],
    ['臺南市', 'tainan'],
    ['台東', 'taitung'],
    ['臺東縣', 'taitung'],
    ['高雄', 'kaohsiung'],
    ['Kaohsiung', 'kaohsiung'],
    ['Kaohsiung City', 'kaohsiung'],
    ['花蓮', 'hualien'],
    ['花蓮縣', 'hualien'],
    ['Hualien County', 'hualien'],
    ['宜蘭', 'yilan'],
    ['澎湖', 'penghu'],
    ['嘉義', 'chiayi'],
    ['Chiayi', 'chiayi'],
    ['嘉義縣', 'chiayi'],
    ['新竹', 'hsinchu'],
    ['桃園', 'taoyuan'],
    ['桃园市', 'taoyuan'],
    ['基隆', 'keelung'],
    ['南投', 'nantou'],
    ['屏東', 'pingtung'],
    ['屏東県', 'pingtung'],
  ])('%s → %s', (input, code) => {
    expect(normaliseCity(input)).toBe(code);
    expect(value(cityField, input)).toBe(code);
  });

  it('knows every code and every display name of the three locales', () => {
    for (const code of CITY_CODES) {
      expect(normaliseCity(code)).toBe(code);
      expect(normaliseCity(code.toUpperCase())).toBe(code);
      for (const locale of LOCALES) {
        const name = common[locale].cities[code]!;
        expect(normaliseCity(name), `${locale} ${name}`).toBe(code);
      }
    }
  });

  it('reads every alias as its own city (no alias shadows another city)', () => {
    for (const code of CITY_CODES) for (const alias of CITY_ALIASES[code]) expect(normaliseCity(alias), alias).toBe(code);
    // Taipei County is the former name of New Taipei, not Taipei City.
    for (const former of ['台北縣', '臺北縣', 'Taipei County']) expect(normaliseCity(former), former).toBe('new_taipei');
  });

  it('returns undefined for what is not a city', () => {
    for (const input of ['atlantis', '', '   ', '市', 'City', 'Taipei Tokyo', 'tai pei x', 5, null, undefined, ['taipei']]) {
      expect(normaliseCity(input as never), String(input)).toBeUndefined();
    }
  });

  it('refuses an unknown city naming the accepted values; a missing one is "required"', () => {
    expect(messages(cityField, 'atlantis')).toEqual(['validation.cityUnknown']);
    expect(messages(cityField, 42)).toEqual(['validation.cityUnknown']);
    expect(messages(cityField, undefined)).toEqual(['validation.cityRequired']);
    expect(messages(cityField, '  ')).toEqual(['validation.cityRequired']);
    expect(messages(cityField, null)).toEqual(['validation.cityRequired']);
    for (const locale of LOCALES) {
      const text = common[locale].validation.cityUnknown!;
      for (const code of CITY_CODES) expect(text, `${locale} names ${code}`).toContain(code);
    }
  });
});

describe('language', () => {
  it.each([
    ['zh', 'zh'],
    ['zh-TW', 'zh'],
    ['zh_tw', 'zh'],
    ['ZH-tw', 'zh'],
    ['zh-Hant', 'zh'],
    ['zh-Hant-TW', 'zh'],
    ['zh-cmn-Hant', 'zh'],
    ['cmn', 'zh'],
    ['nan', 'nan'],
    ['nan-TW', 'nan'],
    ['zh-min-nan', 'nan'],
    ['zh-nan', 'nan'],
    ['tw', 'nan'],
    ['TW', 'nan'],
    ['hak', 'hak'],
    ['hak-TW', 'hak'],
    ['en', 'en'],
    ['en-US', 'en'],
    ['en-GB', 'en'],
    ['ja', 'ja'],
    ['ja-JP', 'ja'],
    ['ko', 'ko'],
    ['ko-KR', 'ko'],
    ['fr-FR', 'fr'],
    ['fr-CA', 'fr'],
    ['de-DE', 'de'],
    ['de-AT', 'de'],
    ['es-ES', 'es'],
    ['es-419', 'es'],
    ['台語', 'nan'],
    ['臺語', 'nan'],
    ['台湾語', 'nan'],
    ['Taiwanese', 'nan'],
    ['Taiwanese Hokkien', 'nan'],
    ['閩南語', 'nan'],
    ['客語', 'hak'],
    ['客家語', 'hak'],
    ['Hakka', 'hak'],
    ['中文', 'zh'],
    ['華語', 'zh'],
    ['Mandarin', 'zh'],
    ['中国語', 'zh'],
    ['English', 'en'],
    ['english', 'en'],
    ['英文', 'en'],
    ['日本語', 'ja'],
    ['Japanese', 'ja'],
    ['한국어', 'ko'],
    ['Español', 'es'],
  ])('%s → %s', (input, code) => {
    expect(normaliseLanguage(input)).toBe(code);
  });

  it('uses nan (ISO 639-3 Taiwanese Hokkien), not tw (Twi), as the code', () => {
    expect(LANGUAGE_CODES).toContain('nan');
    expect(LANGUAGE_CODES).not.toContain('tw');
    for (const locale of LOCALES) {
      expect(common[locale].languages.nan, locale).toBeTruthy();
      expect(common[locale].languages.tw, locale).toBeUndefined();
    }
  });

  it('knows every code and every display name of the three locales', () => {
    for (const code of LANGUAGE_CODES) {
      expect(normaliseLanguage(code)).toBe(code);
      for (const locale of LOCALES) {
        const name = common[locale].languages[code]!;
        expect(normaliseLanguage(name), `${locale} ${name}`).toBe(code);
      }
    }
  });

  it('reads every name as its own language', () => {
    for (const code of LANGUAGE_CODES) for (const name of LANGUAGE_NAMES[code]) expect(normaliseLanguage(name), name).toBe(code);
  });

  it('returns undefined for what is not one of our languages', () => {
    for (const input of ['xx', 'zh-yue', 'yue', 'tw-GH', 'en--US', '-en', 'Klingon', '', 3, null]) {
      expect(normaliseLanguage(input as never), String(input)).toBeUndefined();
    }
  });

  it('normalises a list, removes duplicates after normalisation and keeps the order', () => {
    expect(value(languagesField, ['zh-TW', 'nan'])).toEqual(['zh', 'nan']);
    expect(value(languagesField, ['ja', 'tw', 'ja-JP', 'nan-TW', 'zh'])).toEqual(['ja', 'nan', 'zh']);
    expect(value(languagesField, 'en-US')).toEqual(['en']);
    expect(value(languagesField, ['English', '日本語', '台語'])).toEqual(['en', 'ja', 'nan']);
  });

  it('refuses an unknown language naming the accepted values; none at all is "required"', () => {
    expect(messages(languagesField, ['zh', 'klingon'])).toEqual(['validation.languageUnknown']);
    expect(messages(languagesField, 'xx')).toEqual(['validation.languageUnknown']);
    expect(messages(languagesField, [7])).toEqual(['validation.languageUnknown']);
    expect(messages(languagesField, [])).toEqual(['validation.languageRequired']);
    expect(messages(languagesField, undefined)).toEqual(['validation.languageRequired']);
    expect(messages(languagesField, [''])).toEqual(['validation.languageRequired']);
    for (const locale of LOCALES) {
      const text = common[locale].validation.languageUnknown!;
      for (const code of LANGUAGE_CODES) expect(text, `${locale} names ${code}`).toContain(code);
    }
  });
});

describe('price', () => {
  it('accepts a positive whole number as a JSON number or a string of decimal digits', () => {
    expect(value(priceField, 2500)).toBe(2500);
    expect(value(priceField, '2500')).toBe(2500);
    expect(value(priceField, ' 2500 ')).toBe(2500);
    expect(value(priceField, '２５００')).toBe(2500);
    expect(value(priceField, '007')).toBe(7);
    expect(value(priceField, 1_000_000)).toBe(1_000_000);
  });

  it.each([['0x10'], ['1e3'], [true], [false], ['12.5'], [12.5], [[]], [[2500]], [{}], [-5], ['-5'], [0], ['0'], ['+5'], ['2 500'], ['2,500'], ['abc'], [Infinity], [NaN], ['Infinity']])(
    'refuses %j with the positive-price message',
    (input) => {
      expect(messages(priceField, input)).toEqual(['validation.pricePositive']);
    },
  );

  it('asks for a price when it is missing or empty, and caps it', () => {
    for (const input of [undefined, null, '', '   ']) expect(messages(priceField, input)).toEqual(['validation.priceRequired']);
    expect(messages(priceField, 1_000_001)).toEqual(['validation.priceTooHigh']);
    expect(messages(priceField, '99999999999999999999')).toEqual(['validation.priceTooHigh']);
  });

  it('stays strict when a form is parsed by conform (which reads number fields with Number())', () => {
    const form = (price: string) => {
      const data = new FormData();
      for (const [k, v] of Object.entries({ type: 'guide', name: '阿明', email: 'a@example.test', password: 'secret1', city: '台北市', description: '介紹', price })) data.append(k, v);
      for (const l of ['zh-TW', 'tw']) data.append('language', l);
      return data;
    };
    for (const price of ['0x10', '1e3', '12.5', '-5', '0']) {
      const submission = parseWithZod(form(price), { schema: registerSchema });
      expect(submission.status, price).toBe('error');
      expect(submission.status === 'error' && submission.error?.price, price).toEqual(['validation.pricePositive']);
    }
    const ok = parseWithZod(form(' 2500 '), { schema: registerSchema });
    expect(ok.status === 'success' && ok.value).toMatchObject({ city: 'taipei', language: ['zh', 'nan'], price: 2500 });
    const constraint = getZodConstraint(guideProfileSchema);
    expect(constraint.price).toMatchObject({ required: true });
    expect(constraint.name).toMatchObject({ required: true });
  });

  it('is the same rule for registration and for the profile', () => {
    const registration = { type: 'guide', name: '阿明', email: 'a@example.test', password: 'secret1', city: 'taipei', language: ['zh'], description: '介紹' };
    const profile = { name: '阿明', email: 'a@example.test', city: 'taipei', language: ['zh'], description: '介紹' };
    for (const price of ['0x10', true, '1e3', ' 2500 ', '', 0]) {
      const a = parse(registerSchema, { ...registration, price });
      const b = parse(guideProfileSchema, { ...profile, price });
      expect(a.ok, String(price)).toBe(b.ok);
      if (a.ok && b.ok) expect((a.value as { price: number }).price).toBe((b.value as { price: number }).price);
      if (!a.ok && !b.ok) {
        const priceMessages = (schema: z.ZodType, input: object) =>
          schema.safeParse(input).error!.issues.filter((i) => i.path[0] === 'price').map((i) => i.message);
        expect(priceMessages(registerSchema, { ...registration, price })).toEqual(priceMessages(guideProfileSchema, { ...profile, price }));
      }
    }
  });
});

describe('names', () => {
  it('trims, NFC-normalises and removes bidi overrides and isolates', () => {
    expect(value(nameField, '  王小明  ')).toBe('王小明');
    expect(value(nameField, 'Jose\u0301')).toBe('José');
    expect(value(nameField, '\u202Egnp.exe')).toBe('gnp.exe');
    expect(value(nameField, 'a\u202Ab\u202Bc\u202Cd\u202De\u2066f\u2067g\u2068h\u2069')).toBe('abcdefgh');
  });

  it('keeps joiners inside a real name', () => {
    expect(value(nameField, '👩\u200D👩\u200D👧 家')).toBe('👩\u200D👩\u200D👧 家');
  });

  it.each([['\u200B'], ['\u200B\u200C\u200D'], ['\u2060\uFEFF'], [' \u200B \u3000 '], ['\u00AD'], ['\u202E\u202C'], ['\u3164'], ['\u180E'], ['']])(
    'refuses %j (nothing visible) as a missing name',
    (input) => {
      expect(messages(nameField, input)).toEqual(['validation.nameRequired']);
    },
  );

  it('refuses control characters, NUL included', () => {
    for (const input of ['王\u0000明', '\u0000', 'a\u0007b', 'a\nb', 'a\tb', 'a\u007Fb', 'a\u0085b']) {
      expect(messages(nameField, input), JSON.stringify(input)).toEqual(['validation.invalidCharacters']);
    }
  });
});

describe('control characters in every text field', () => {
  it('refuses NUL and other C0 controls in single-line fields', () => {
    expect(messages(emailField, 'a\u0000@example.test')).toEqual(['validation.invalidCharacters']);
    expect(messages(emailField, 'a@example.test\u0000')).toEqual(['validation.invalidCharacters']);
    expect(messages(newPasswordField, 'secret\u0000secret')).toEqual(['validation.invalidCharacters']);
    expect(messages(emailCodeField, '12345\u0000')).toEqual(['validation.invalidCharacters']);
    const login = loginSchema.safeParse({ email: 'a\u0000@example.test', password: 'x\u0000' });
    expect(login.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['email', 'validation.invalidCharacters'],
      ['password', 'validation.invalidCharacters'],
    ]);
    const verify = verifyEmailSchema.safeParse({ email: 'a@example.test', code: '\u0000' });
    expect(verify.error!.issues.map((i) => i.message)).toEqual(['validation.invalidCharacters']);
  });

  it('allows tab and newlines in multi-line fields, and nothing else', () => {
    expect(value(descriptionField, '第一行\r\n第二行\n\t縮排')).toBe('第一行\r\n第二行\n\t縮排');
    expect(messages(descriptionField, '介紹\u0000')).toEqual(['validation.invalidCharacters']);
    expect(messages(descriptionField, '介紹\u001B[31m')).toEqual(['validation.invalidCharacters']);
    const bio = travelerProfileSchema.safeParse({ name: '阿明', email: 'a@example.test', bio: '簡介\u0000' });
    expect(bio.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['bio', 'validation.invalidCharacters']]);
    expect(travelerProfileSchema.parse({ name: '阿明', email: 'a@example.test', bio: '第一行\n第二行' }).bio).toBe('第一行\n第二行');
  });

  it('still reads a six-digit code typed with full-width digits', () => {
    expect(value(emailCodeField, ' １２３４５６ ')).toBe('123456');
    expect(messages(emailCodeField, '12345')).toEqual(['validation.codeFormat']);
  });
});

describe('passwords', () => {
  it('allows 6 to 128 characters for a new password', () => {
    expect(value(newPasswordField, 'a'.repeat(6))).toBe('a'.repeat(6));
    expect(value(newPasswordField, 'a'.repeat(128))).toBe('a'.repeat(128));
    expect(messages(newPasswordField, 'a'.repeat(129))).toEqual(['validation.passwordMax']);
    expect(messages(newPasswordField, 'a'.repeat(5))).toEqual(['validation.passwordMin']);
  });

  it('refuses a login password over 128 characters as a validation error', () => {
    expect(loginSchema.safeParse({ email: 'a@example.test', password: 'a'.repeat(128) }).success).toBe(true);
    const result = loginSchema.safeParse({ email: 'a@example.test', password: 'a'.repeat(129) });
    expect(result.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['password', 'validation.passwordMax']]);
    expect(loginSchema.safeParse({ email: 'a@example.test', password: '' }).error!.issues[0]!.message).toBe('validation.requiredFields');
  });
});

describe('messages', () => {
  it('has every new key in the three locales', () => {
    for (const key of ['cityUnknown', 'languageUnknown', 'priceTooHigh', 'invalidCharacters', 'passwordMax']) {
      for (const locale of LOCALES) expect(common[locale].validation[key], `${locale} validation.${key}`).toBeTruthy();
    }
    expect(common['zh-TW'].validation.passwordMax).toBe('密碼最多 128 個字元');
  });
});
