import { and, asc, eq, gt, isNull, lte, or } from 'drizzle-orm';
import type { Locale } from '~/i18n/config';
import { getDb } from '~db/client';
import { banners } from '~db/schema';
import { blobUrl } from './blobs.server';

/** Banners for the home page in the reader's language that are active right now. */
export async function listActiveBanners(locale: Locale, now = new Date()) {
  const rows = await getDb()
    .select({
      id: banners.id,
      title: banners.title,
      subtitle: banners.subtitle,
      imageKey: banners.imageKey,
      linkUrl: banners.linkUrl,
    })
    .from(banners)
    .where(
      and(
        eq(banners.locale, locale),
        eq(banners.isActive, true),
        or(isNull(banners.startsAt), lte(banners.startsAt, now)),
        or(isNull(banners.endsAt), gt(banners.endsAt, now)),
      ),
    )
    .orderBy(asc(banners.sortOrder), asc(banners.id));
  return rows.map(({ imageKey, ...b }) => ({ ...b, imageUrl: blobUrl(imageKey) }));
}
