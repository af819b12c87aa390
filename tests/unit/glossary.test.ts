import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '~/i18n/config';

/**
 * One word for one thing in each language (issue 35): docs/glossary/<lng>.json names the word the interface uses
 * for each thing and the variants it does not; no translation file of that language may hold a variant.
 */
interface Glossary {
  terms: { meaning: string; use: string; not: string[] }[];
}

const ROOT = path.resolve(__dirname, '../..');

/** Every string of a translation file with its key path. */
function strings(value: unknown, at: string[] = []): [string, string][] {
  if (typeof value === 'string') return [[at.join('.'), value]];
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, [...at, k]));
  return [];
}

/** Whole words for Latin-script variants ("e-mail" is not inside "re-mail"); any occurrence for CJK ones. */
const matcher = (word: string) => (/^[\x20-\x7e]+$/.test(word) ? new RegExp(`(?<![A-Za-z-])${word.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&')}(?![A-Za-z-])`) : new RegExp(word));

describe('glossary: one word for one thing', () => {
  for (const locale of SUPPORTED_LOCALES) {
    it(`${locale}: no translation uses a word the glossary rules out`, () => {
      const glossary = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/glossary', `${locale}.json`), 'utf8')) as Glossary;
      expect(glossary.terms.length).toBeGreaterThan(0);
      const dir = path.join(ROOT, 'app/locales', locale);
      const found: string[] = [];
      for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
        for (const [key, text] of strings(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')))) {
          for (const term of glossary.terms) {
            for (const variant of term.not) if (matcher(variant).test(text)) found.push(`${file} ${key}: "${variant}" (use "${term.use}": ${term.meaning})`);
          }
        }
      }
      expect(found).toEqual([]);
    });
  }

  it('the checker finds a variant where it stands (it is not a test that cannot fail)', () => {
    expect(matcher('郵箱').test('請輸入郵箱地址')).toBe(true);
    expect(matcher('e-mail').test('Your e-mail address')).toBe(true);
    expect(matcher('e-mail').test('Your email address')).toBe(false);
  });
});
