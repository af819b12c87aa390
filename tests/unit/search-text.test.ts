import { describe, expect, it } from 'vitest';
import { localizedProfile } from '~/lib/localized-profile';
import { containsPattern, guideSearchText, matchesKeyword, normaliseSearchText, searchTerms } from '~/lib/search-text';
import { CITY_ALIASES, CITY_CODES, type CityCode } from '~/lib/cities';

describe('search text normaliser', () => {
  it('reads width, case and variant characters alike', () => {
    expect(normaliseSearchText('臺北 ＴＡＩＰＥＩ　１０１')).toBe('台北 taipei 101');
    expect(normaliseSearchText('ﾀｲﾍﾟｲ')).toBe('タイペイ');
    expect(normaliseSearchText('台湾の温泉')).toBe(normaliseSearchText('臺灣の溫泉'));
  });

  it('splits a query into distinct words and escapes LIKE wildcards', () => {
    expect(searchTerms('  臺北   夜市 台北 ')).toEqual(['台北', '夜市']);
    expect(searchTerms('')).toEqual([]);
    expect(containsPattern('100%_\\')).toBe('%100\\%\\_\\\\%');
  });

  it('indexes names, bios, texts in every language and the city in three languages', () => {
    const text = guideSearchText({
      name: 'Ａlice',
      bio: '臺灣',
      city: 'hualien',
      description: '步道',
      localized: { en: { description: 'Gorge walk' }, ja: { headline: '渓谷' } },
    });
    for (const word of ['alice', '台灣', '花蓮', 'hualien', 'カレン', '步道', 'gorge walk', '渓谷']) expect(text).toContain(word);
  });
});

describe('localized profile', () => {
  const guide = { headline: '一句話', description: '中文介紹', localized: { en: { headline: 'One line', description: 'English intro' } } };
  it("gives the reader's language when written, else the 中文 text with its language", () => {
    expect(localizedProfile(guide, 'en')).toEqual({ headline: 'One line', description: 'English intro', writtenIn: null });
    expect(localizedProfile(guide, 'ja')).toEqual({ headline: '一句話', description: '中文介紹', writtenIn: 'zh-TW' });
    expect(localizedProfile(guide, 'zh-TW')).toEqual({ headline: '一句話', description: '中文介紹', writtenIn: null });
  });
});

describe('keyword terms that name a city (issue 19)', () => {
  const guideIn = (city: CityCode) => guideSearchText({ name: '導遊', bio: '在地導遊', description: '帶你走訪在地景點。', city });

  it('find the guides of that city and no other, for every city, every name and every pair', () => {
    for (const searched of CITY_CODES) {
      for (const name of [searched, ...CITY_ALIASES[searched]]) {
        const [term, ...rest] = searchTerms(name);
        expect(rest, name).toEqual([]);
        for (const city of CITY_CODES) expect(matchesKeyword(guideIn(city), term!), `${name} in a ${city} guide`).toBe(city === searched);
      }
    }
  });

  it('read Taipei as 台北 and never as New Taipei, in every language', () => {
    for (const name of ['Taipei', 'taipei', '台北', '臺北市', 'タイペイ', 'Taipei City']) {
      const [term] = searchTerms(name);
      expect(matchesKeyword(guideIn('taipei'), term!), name).toBe(true);
      expect(matchesKeyword(guideIn('new_taipei'), term!), name).toBe(false);
    }
    expect(searchTerms('New Taipei 美食')).toEqual(['new taipei', '美食']);
    expect(matchesKeyword(guideIn('new_taipei'), 'new taipei')).toBe(true);
    expect(matchesKeyword(guideIn('taipei'), 'new taipei')).toBe(false);
    // A text that names Taipei itself is still found, beside New Taipei.
    expect(matchesKeyword(normaliseSearchText('New Taipei and Taipei'), 'taipei')).toBe(true);
    // A word that is not a city keeps matching anywhere.
    expect(matchesKeyword(guideIn('new_taipei'), 'tai')).toBe(true);
  });
});
