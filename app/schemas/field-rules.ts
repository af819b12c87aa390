import { z } from 'zod';
import { CITY_CODES, normaliseCity } from '~/lib/cities';
import { hasContactDetails } from '~/lib/contact-mask';
import { GROUP_SIZE_MAX, GROUP_SIZE_MIN } from '~/lib/group-size';
import { MAX_ID } from '~/lib/ids';
import { LANGUAGE_CODES, normaliseLanguage } from '~/lib/languages';


/**
 * Metadata key for the JSON Schema of what a client may send, where it is wider than what the field yields
 * (a city name becomes a code). The OpenAPI generator (app/http/openapi.server.ts) uses it for request bodies.
 */
export const INPUT_SCHEMA = 'x-input-schema';
/**
 * Field rules shared by every form and API body. Messages are i18n keys (validation.*), translated where
 * the answer is written (form re-render or JSON envelope), so one schema serves every language.
 * Conform turns empty form fields into undefined, so "required" is the message for a missing value.
 * These schemas also run in the browser (conform's client validation): keep them free of server code.
 */

/** Empty form fields arrive as undefined (conform); API clients may send '' or null for "nothing". */
export const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A query parameter or form field left empty ('' or spaces) reads as absent. */
export const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** `schema`, or absent when the value is missing or blank. */
export const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

/**
 * A whole number from `min` to `max` in a query, a form or a JSON body: a JSON number or a string of digits
 * (Number()'s '1e3', '0x10', '' and `true` are not whole numbers here); one message for every problem.
 */
export const wholeNumber = (min: number, max: number, message = 'validation.invalid') =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message }),
  );

/** An id (app/lib/ids.ts): a positive whole number in the column's range. */
export const idField = wholeNumber(1, MAX_ID);

/** Control characters: every one in a single-line field; all but tab, line feed and carriage return in a multi-line one. */
const SINGLE_LINE_CONTROLS = /\p{Cc}/u;
const MULTI_LINE_CONTROLS = /[^\P{Cc}\t\n\r]/u;

/**
 * The base of every text field: a string (anything else gets `typeMessage`) without control characters
 * ('validation.invalidCharacters'; NUL would otherwise reach PostgreSQL, which refuses it in text).
 * Checks added after this one do not run once it fails.
 */
export function textField(typeMessage: string, options: { multiline?: boolean } = {}) {
  const controls = options.multiline ? MULTI_LINE_CONTROLS : SINGLE_LINE_CONTROLS;
  return z.string({ error: typeMessage }).refine((v) => !controls.test(v), { error: 'validation.invalidCharacters', abort: true });
}

/**
 * Format characters (Unicode Cf: zero-width space and joiners, U+2060, the soft hyphen, U+FEFF, bidirectional
 * controls, ...) show nothing, and split a phone number so that a reader sees it whole while a filter does not
 * (docs/decisions/034-contact-masking.md). Text one person writes to another refuses them, except what emoji are
 * made of: the zero-width joiner between two pictographs (👨‍👩‍👧) and the tags of a flag (🏴 + tags).
 */
const FORMAT_CHARACTER = /\p{Cf}/u;
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?)\u200D(?=\p{Extended_Pictographic})/gu;
const FLAG_TAGS = /(?<=\u{1F3F4})[\u{E0020}-\u{E007F}]+/gu;
const hasFormatCharacters = (v: string) => FORMAT_CHARACTER.test(v.replace(EMOJI_JOINER, '').replace(FLAG_TAGS, ''));

/**
 * The base of message text (chat messages, board posts and replies, the booking note): several lines, without
 * control characters and without format characters ('validation.formatCharacters').
 */
export function messageText(typeMessage: string) {
  return textField(typeMessage, { multiline: true }).refine((v) => !hasFormatCharacters(v), { error: 'validation.formatCharacters', abort: true });
}

export const emailField = textField('validation.emailRequired')
  .trim()
  .min(1, { error: 'validation.emailRequired' })
  .max(254, { error: 'validation.emailInvalid' })
  .pipe(z.email({ error: 'validation.emailInvalid' }));

export const PASSWORD_MAX = 128;

export const newPasswordField = textField('validation.passwordRequired')
  .min(6, { error: 'validation.passwordMin' })
  .max(PASSWORD_MAX, { error: 'validation.passwordMax' });

/** Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they can reverse how a name reads. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/gu;
/**
 * What leaves no visible mark: white space, format characters (zero-width space and joiners, U+2060,
 * U+FEFF, soft hyphen, ...), default-ignorable code points (Hangul fillers, variation selectors, ...) and
 * the blank braille pattern.
 */
const INVISIBLE = /[\s\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/gu;

export const nameField = textField('validation.nameRequired')
  .overwrite((v) => v.replace(BIDI_CONTROLS, ''))
  .normalize('NFC')
  .trim()
  .refine((v) => v.replace(INVISIBLE, '') !== '', { error: 'validation.nameRequired', abort: true })
  .max(80, { error: 'validation.invalid', abort: true })
  // A name is shown to the other side before any booking (orders, chat, notices, the board): no contact details in it.
  .refine((v) => !hasContactDetails(v), { error: 'validation.nameContact' });

/**
 * A city code, also read from a city name in zh-TW, en or ja (台北市, 臺北, Taipei City; see normaliseCity).
 * Missing → 'validation.cityRequired'; anything that is not one of our cities → 'validation.cityUnknown',
 * whose text names the accepted values (only API clients see it: the forms offer a select).
 */
export const cityField = z.preprocess(
  (v) => (blank(v) ? undefined : (normaliseCity(v) ?? v)),
  z.enum(CITY_CODES, { error: (issue) => (issue.input === undefined ? 'validation.cityRequired' : 'validation.cityUnknown') }),
).meta({
  // What clients may send, for the OpenAPI document (the schema above describes only the normalised code).
  [INPUT_SCHEMA]: {
    anyOf: [{ type: 'string', enum: [...CITY_CODES] }, { type: 'string', description: 'a city name in zh-TW, en or ja: 臺北市, 台北, Taipei City' }],
  },
});

/**
 * One or more language codes; a form sends one value per ticked box, the API an array (or one string).
 * BCP 47 tags and language names are read as our codes (zh-TW → zh, nan-TW and the old `tw` → nan, 日本語 → ja;
 * see normaliseLanguage); duplicates after that are dropped, first one kept. Blank entries are ignored.
 * None → 'validation.languageRequired'; an entry that is not one of ours → 'validation.languageUnknown'.
 */
export const languagesField = z.preprocess(
  (v) => {
    if (blank(v)) return [];
    const list = Array.isArray(v) ? v : [v];
    const out: unknown[] = [];
    for (const entry of list) {
      if (blank(entry)) continue;
      const code = normaliseLanguage(entry) ?? entry;
      if (!out.includes(code)) out.push(code);
    }
    return out;
  },
  z
    .array(z.enum(LANGUAGE_CODES, { error: 'validation.languageUnknown' }), { error: 'validation.languageRequired' })
    .min(1, { error: 'validation.languageRequired' }),
).meta({
  [INPUT_SCHEMA]: {
    description: `one or more of ${LANGUAGE_CODES.join(', ')}, as codes, BCP 47 tags (zh-TW, nan-TW, en-US) or names (台語, 日本語)`,
    anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, minItems: 1 }],
  },
});

export const PRICE_MAX = 1_000_000;
/** Decimal digits only, with white space around them allowed: no sign, point, exponent or 0x. */
const PRICE_DIGITS = /^\s*(\d+)\s*$/;

/**
 * The guide's price in whole NT$: one booked slot (a morning, an afternoon or an evening) for the whole group
 * (docs/decisions/016-group-size.md), for registration and the profile alike: a JSON number or a string of decimal
 * digits (full-width digits are read as digits). Missing or empty → 'validation.priceRequired'; anything
 * else that is not a whole number above 0 ('0x10', '1e3', '12.5', true, [], -5, 0) → 'validation.pricePositive';
 * above PRICE_MAX → 'validation.priceTooHigh'.
 * Whatever is not a valid number becomes NaN before the number check, so no later coercion (conform reads
 * form strings with Number()) can turn '0x10' into 16.
 */
/** A whole number as a client writes it: a JSON number, or a string of (full- or half-width) digits; blank → undefined, anything else → NaN. */
function digitsOrNumber(v: unknown): unknown {
  if (blank(v)) return undefined;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const digits = PRICE_DIGITS.exec(v.normalize('NFKC'));
    return digits ? Number(digits[1]) : NaN;
  }
  return NaN;
}

export const priceField = z.preprocess(
  digitsOrNumber,
  z
    .number({ error: (issue) => (issue.input === undefined ? 'validation.priceRequired' : 'validation.pricePositive') })
    // Too high first: int() also refuses numbers beyond the safe integers, and one message per problem is enough.
    .max(PRICE_MAX, { error: 'validation.priceTooHigh', abort: true })
    .int({ error: 'validation.pricePositive', abort: true })
    .positive({ error: 'validation.pricePositive' }),
).meta({
  [INPUT_SCHEMA]: {
    description: `the price of one booked slot (morning, afternoon or evening) for the whole group, in whole NT$, 1 to ${PRICE_MAX}`,
    anyOf: [
      { type: 'integer', minimum: 1, maximum: PRICE_MAX },
      { type: 'string', pattern: '^\\s*[0-9]+\\s*$' },
    ],
  },
});

/**
 * A guide's maximum group size (docs/decisions/016-group-size.md): a whole number from GROUP_SIZE_MIN to
 * GROUP_SIZE_MAX, as a JSON number or a string of digits. Optional: absent or blank keeps the guide's current
 * value (a new guide gets DEFAULT_MAX_GROUP_SIZE); anything else → 'validation.maxGroupSizeRange'.
 */
export const maxGroupSizeField = z
  .preprocess(
    digitsOrNumber,
    z
      .number({ error: 'validation.maxGroupSizeRange' })
      .int({ error: 'validation.maxGroupSizeRange', abort: true })
      .min(GROUP_SIZE_MIN, { error: 'validation.maxGroupSizeRange', abort: true })
      .max(GROUP_SIZE_MAX, { error: 'validation.maxGroupSizeRange' })
      .optional(),
  )
  .meta({
    [INPUT_SCHEMA]: {
      description: `the most people one booking may bring, ${GROUP_SIZE_MIN} to ${GROUP_SIZE_MAX}; absent keeps the current value`,
      anyOf: [
        { type: 'integer', minimum: GROUP_SIZE_MIN, maximum: GROUP_SIZE_MAX },
        { type: 'string', pattern: '^\\s*[0-9]+\\s*$' },
      ],
    },
  });

export const descriptionField = textField('validation.descriptionRequired', { multiline: true })
  .trim()
  .min(1, { error: 'validation.descriptionRequired' })
  .max(2000, { error: 'validation.invalid' });

export const optionalText = (max: number, options: { multiline?: boolean } = {}) =>
  textField('validation.invalid', options)
    .trim()
    .max(max, { error: 'validation.invalid' })
    .optional()
    .transform((v) => v || undefined);

export const emailCodeField = textField('validation.codeRequired')
  .normalize('NFKC')
  .trim()
  .regex(/^\d{6}$/, { error: 'validation.codeFormat' });

/** A field real people never see or fill; bots that fill every input give themselves away. */
export const honeypotField = z.string().max(0).optional();
