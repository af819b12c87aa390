import { describe, expect, it } from 'vitest';
import { listActiveBanners } from '~/services/admin/banners.server';
import { getActiveTerms } from '~/services/accounts/terms.server';
import { createBanner, createTerms } from '~server/seed/factories';
import { testDriver, useTestDatabase } from '../support/test-database';

useTestDatabase();

describe(`terms and banners (${testDriver})`, () => {
  it('returns the active terms in the reader language, falling back to zh-TW', async () => {
    await createTerms({ kind: 'terms', locale: 'zh-TW', title: '服務條款', version: '1.0.0', isActive: false });
    await createTerms({ kind: 'terms', locale: 'zh-TW', title: '服務條款 v2', version: '2.0.0', isActive: true });
    await createTerms({ kind: 'terms', locale: 'en', title: 'Terms of Service', version: '2.0.0', isActive: true });

    expect(await getActiveTerms('terms', 'en')).toMatchObject({ title: 'Terms of Service', locale: 'en' });
    expect(await getActiveTerms('terms', 'ja')).toMatchObject({ title: '服務條款 v2', locale: 'zh-TW', version: '2.0.0' });
    expect(await getActiveTerms('privacy', 'zh-TW')).toBeUndefined();
  });

  it('allows only one active text per kind and language', async () => {
    await createTerms({ kind: 'booking', locale: 'ja', title: '予約規約', version: '1.0.0' });
    await expect(createTerms({ kind: 'booking', locale: 'ja', title: '予約規約 2', version: '1.1.0' })).rejects.toThrow();
  });

  it('shows banners inside their time window, in order, in the reader language with zh-TW as fallback', async () => {
    const now = new Date('2026-05-01T00:00:00Z');
    await createBanner({ title: '第二', sortOrder: 2 });
    await createBanner({ title: '第一', sortOrder: 1 });
    await createBanner({ title: '未開始', startsAt: new Date('2026-06-01T00:00:00Z') });
    await createBanner({ title: '已結束', endsAt: new Date('2026-04-01T00:00:00Z') });
    await createBanner({ title: '停用', isActive: false });
    await createBanner({ title: '第三', titleEn: 'Third', subtitle: '副標', sortOrder: 3 });

    expect((await listActiveBanners('zh-TW', now)).map((b) => b.title)).toEqual(['第一', '第二', '第三']);
    // en falls back to the zh-TW text where the banner has none in English.
    expect((await listActiveBanners('en', now)).map((b) => [b.title, b.subtitle])).toEqual([['第一', null], ['第二', null], ['Third', null]]);
  });
});
