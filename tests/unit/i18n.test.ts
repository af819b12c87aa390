import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '~/i18n/config';

/** Every language must have every key, and every key the code asks for must exist. */
const localesDir = path.resolve('app/locales');

function flatten(obj: Record<string, unknown>, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') for (const [kk, vv] of flatten(v as Record<string, unknown>, key)) out.set(kk, vv);
    else out.set(key, v);
  }
  return out;
}

function load(locale: string) {
  const dir = path.join(localesDir, locale);
  const all = new Map<string, unknown>();
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const ns = path.basename(file, '.json');
    for (const [k, v] of flatten(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')), ns)) all.set(k, v);
  }
  return all;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(tsx?|jsx?)$/.test(e.name) ? [p] : [];
  });
}

const tables = Object.fromEntries(SUPPORTED_LOCALES.map((l) => [l, load(l)]));

describe('translations', () => {
  it.each(SUPPORTED_LOCALES)('%s has exactly the keys of zh-TW, none empty', (locale) => {
    const reference = [...tables['zh-TW']!.keys()].sort();
    expect([...tables[locale]!.keys()].sort()).toEqual(reference);
    for (const [key, value] of tables[locale]!) expect(typeof value === 'string' && value.trim().length > 0, key).toBe(true);
  });

  it.each(SUPPORTED_LOCALES)('%s keeps the same {{placeholders}} as zh-TW', (locale) => {
    const vars = (s: unknown) => [...String(s).matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();
    for (const [key, value] of tables['zh-TW']!) expect(vars(tables[locale]!.get(key)), key).toEqual(vars(value));
  });

  it('has every literal key the code uses', () => {
    const used = new Set<string>();
    for (const file of sourceFiles(path.resolve('app'))) {
      const src = fs.readFileSync(file, 'utf8');
      for (const m of src.matchAll(/\bt\(\s*['"]([\w.]+)['"]/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(30);
    // common.json's keys are used bare (t('nav.login')); another file's keys carry its name (t('auth.login.title')).
    const has = (key: string) => tables['zh-TW']!.has(`common.${key}`) || tables['zh-TW']!.has(key);
    const missing = [...used].filter((key) => !has(key) && !has(`${key}_other`));
    expect(missing).toEqual([]);
  });

  it('registers every locale file with the server bundle', async () => {
    const { AREA_NAMES } = await import('~/i18n/resources.server');
    for (const locale of SUPPORTED_LOCALES) {
      const files = fs.readdirSync(path.join(localesDir, locale)).filter((f) => f.endsWith('.json') && f !== 'common.json');
      expect(files.map((f) => f.replace(/\.json$/, '')).sort(), locale).toEqual([...AREA_NAMES].sort());
    }
  });

  it('names every city and language code the data model allows', async () => {
    const { CITY_CODES } = await import('~/lib/cities');
    const { LANGUAGE_CODES } = await import('~/lib/languages');
    for (const locale of SUPPORTED_LOCALES) {
      for (const c of CITY_CODES) expect(tables[locale]!.has(`common.cities.${c}`), `${locale} city ${c}`).toBe(true);
      for (const l of LANGUAGE_CODES) expect(tables[locale]!.has(`common.languages.${l}`), `${locale} language ${l}`).toBe(true);
    }
  });
});
