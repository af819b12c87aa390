import { describe, expect, it } from 'vitest';
import { localizedProfile } from '~/lib/localized-profile';
import { containsPattern, guideSearchText, normaliseSearchText, searchTerms } from '~/lib/search-text';

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
