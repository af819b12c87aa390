import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '~/i18n/config';
import { getFixedT } from '~/i18n/i18n.server';
import { LightI18n } from '~/i18n/light';
import { resources } from '~/i18n/resources.server';

/** Every key of the files, plural keys once by their base name. */
function keysOf(tree: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    value && typeof value === 'object' ? keysOf(value as Record<string, unknown>, `${prefix}${key}.`) : [`${prefix}${key.replace(/_(one|other)$/, '')}`],
  );
}

const VALUES = Object.fromEntries(
  ['name', 'email', 'date', 'seconds', 'minutes', 'id', 'reason', 'code', 'version', 'rating', 'pending', 'page', 'message', 'index',
    'year', 'transport', 'totalPages', 'theme', 'room', 'notes', 'ms', 'max', 'guides', 'current', 'cities', 'approved'].map((name) => [name, `<${name}>`]),
);

describe('the browser translator (app/i18n/light.ts)', () => {
  for (const locale of SUPPORTED_LOCALES) {
    it(`gives i18next's strings for every key in ${locale}`, async () => {
      const light = new LightI18n(locale);
      // As the browser gets them: common, then each area under its name.
      light.addResourceBundle(locale, 'common', resources[locale].common);
      const t = await getFixedT(locale);
      const keys = [...new Set(keysOf(resources[locale].common))];
      expect(keys.length).toBeGreaterThan(400);
      for (const key of keys) {
        for (const options of [undefined, VALUES, { ...VALUES, count: 0 }, { ...VALUES, count: 1 }, { ...VALUES, count: 7 }]) {
          expect(light.t(key, options), `${locale} ${key} ${JSON.stringify(options?.count)}`).toBe(t(key, options as never));
        }
      }
    });
  }

  it('answers a missing key with the key, a default value, and a missing variable as i18next does', async () => {
    const light = new LightI18n('en');
    light.addResourceBundle('en', 'common', { a: 'Hi {{name}}', b: { c: 'x' } });
    expect(light.t('nope.key')).toBe('nope.key');
    expect(light.t('nope.key', { defaultValue: 'Fallback {{n}}', n: 2 })).toBe('Fallback 2');
    expect(light.t('a')).toBe('Hi {{name}}');
    expect(light.t('a', { name: undefined })).toBe('Hi ');
    expect(light.t('b')).toBe('b');
    expect(light.getFixedT(null, 'common', 'b')('c')).toBe('x');
  });

  it('falls back to zh-TW and follows a language change', () => {
    const light = new LightI18n('ja');
    light.addResourceBundle('zh-TW', 'common', { only: '只有中文' });
    light.addResourceBundle('ja', 'common', { hello: 'こんにちは' });
    light.addResourceBundle('en', 'common', { hello: 'Hello' });
    expect(light.t('only')).toBe('只有中文');
    let changed = '';
    light.on('languageChanged', (lng) => (changed = String(lng)));
    void light.changeLanguage('en');
    expect([changed, light.language, light.t('hello')]).toEqual(['en', 'en', 'Hello']);
  });

  it("tells react-i18next about added words ('added') unless the words are added silently", () => {
    const light = new LightI18n('en');
    const heard: unknown[][] = [];
    light.store.on('added', (...args) => heard.push(args));
    light.addResourceBundle('en', 'common', { hello: 'Hello' });
    light.addResourceBundle('en', 'common', { later: { page: 'Later' } }, true, true, { silent: true });
    // Silent words are there all the same; the cache of resolved languages was reset for them.
    expect([light.t('hello'), light.t('later.page')]).toEqual(['Hello', 'Later']);
    expect(heard).toEqual([['en', 'common']]);
    light.announceAdded('en');
    expect(heard).toEqual([['en', 'common'], ['en', 'common']]);
  });

  it('picks the plural form Intl.PluralRules picks in each language', () => {
    for (const locale of SUPPORTED_LOCALES) {
      const light = new LightI18n(locale);
      light.addResourceBundle(locale, 'common', { n_one: 'one', n_other: 'other' });
      const rules = new Intl.PluralRules(locale);
      for (const count of [0, 1, 2, 5, 11, 21, 100, 1.5, 0.5, -1, -2]) {
        expect(light.t('n', { count }), `${locale} ${count}`).toBe(rules.select(count) === 'one' ? 'one' : 'other');
      }
    }
  });
});
