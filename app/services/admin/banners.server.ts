import { and, asc, desc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Locale } from '~/i18n/config';
import { BANNER_IMAGE_HEIGHT, BANNER_IMAGE_WIDTH, type Banner, type BannerInput, type BannerView } from '~/schemas/banners';
import { getDb, type Database } from '~db/client';
import { banners, blobs } from '~db/schema';
import type { Viewer } from '../platform/access.server';
import { recordAudit } from '../platform/audit.server';
import { blobUrl, storeBlob } from '../platform/blobs.server';
import { now as clockNow } from '../platform/clock.server';
import { AppError } from '../platform/errors.server';
import { encodeImage } from '../platform/image-pipeline.server';

/**
 * Home banners (issue 22, docs/decisions/026-banners.md). One row is one banner in three languages (zh-TW required,
 * en/ja fall back to it), with a place in the admin's order, an on/off switch and an optional from/until window.
 * The home page reads them straight from the database on every request (not through the catalogue cache: a
 * window opening or closing is a moment passing, which no trigger could announce), so a change shows at once.
 * Every change is written with its audit row in one transaction.
 */

type Row = typeof banners.$inferSelect;

const BANNER_QUALITY = 82;

function textIn(row: Pick<Row, 'title' | 'titleEn' | 'titleJa' | 'subtitle' | 'subtitleEn' | 'subtitleJa'>, locale: Locale) {
  if (locale === 'en') return { title: row.titleEn ?? row.title, subtitle: row.titleEn ? row.subtitleEn : (row.subtitleEn ?? row.subtitle) };
  if (locale === 'ja') return { title: row.titleJa ?? row.title, subtitle: row.titleJa ? row.subtitleJa : (row.subtitleJa ?? row.subtitle) };
  return { title: row.title, subtitle: row.subtitle };
}

/** What the home page shows of a banner in one language: its text there, else the zh-TW text. */
export function bannerView(row: Pick<Row, 'id' | 'title' | 'titleEn' | 'titleJa' | 'subtitle' | 'subtitleEn' | 'subtitleJa' | 'linkUrl' | 'imageKey'>, locale: Locale): BannerView {
  return { id: row.id, ...textIn(row, locale), linkUrl: row.linkUrl, imageUrl: blobUrl(row.imageKey) };
}

const liveAt = (at: Date) => and(eq(banners.isActive, true), or(isNull(banners.startsAt), lte(banners.startsAt, at)), or(isNull(banners.endsAt), gt(banners.endsAt, at)));

/** Banners for the home page in the reader's language that are active and inside their window now, in the admin's order. */
export async function listActiveBanners(locale: Locale, now = clockNow(), db: Database = getDb()): Promise<BannerView[]> {
  const rows = await db.select().from(banners).where(liveAt(now)).orderBy(asc(banners.sortOrder), asc(banners.id));
  return rows.map((row) => bannerView(row, locale));
}

function toBanner(row: Row, position: number, at: Date): Banner {
  const live = row.isActive && (!row.startsAt || row.startsAt <= at) && (!row.endsAt || row.endsAt > at);
  return {
    id: row.id,
    title: row.title,
    titleEn: row.titleEn,
    titleJa: row.titleJa,
    subtitle: row.subtitle,
    subtitleEn: row.subtitleEn,
    subtitleJa: row.subtitleJa,
    linkUrl: row.linkUrl,
    imageKey: row.imageKey,
    imageUrl: blobUrl(row.imageKey),
    position,
    isActive: row.isActive,
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    live,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function assertAdmin(viewer: Viewer) {
  if (viewer.type !== 'admin') throw new AppError('FORBIDDEN');
}

/** Every banner in the admin's order (the home page's order), with whether it is shown right now. */
export async function listBanners(admin: Viewer, db: Database = getDb(), at: Date = clockNow()): Promise<Banner[]> {
  assertAdmin(admin);
  const rows = await db.select().from(banners).orderBy(asc(banners.sortOrder), asc(banners.id));
  return rows.map((row, i) => toBanner(row, i + 1, at));
}

export async function getBanner(admin: Viewer, id: number, db: Database = getDb(), at: Date = clockNow()): Promise<Banner> {
  const all = await listBanners(admin, db, at);
  const found = all.find((b) => b.id === id);
  if (!found) throw new AppError('NOT_FOUND', { messageKey: 'banners.errors.notFound' });
  return found;
}

/** A refusal of the picture, said next to the image field. */
function imageRefusal(error: unknown): never {
  if (error instanceof AppError && (error.code === 'FILE_TOO_LARGE' || error.code === 'INVALID_FILE_TYPE')) {
    const messageKey = error.code === 'FILE_TOO_LARGE' ? 'banners.errors.imageTooLarge' : 'banners.errors.imageType';
    throw new AppError(error.code, { messageKey, fieldErrors: { image: [messageKey] } });
  }
  throw error;
}

/**
 * Checks an uploaded picture and stores it as the banner picture (a 1200×400 centre crop, webp, no metadata);
 * answers its key, which a preview carries to the save. Nothing uses it until a banner is saved with it, so
 * /uploads does not serve it before (a stored blob nothing public uses is answered 404).
 */
export async function storeBannerImage(admin: Viewer, bytes: Buffer, db: Database = getDb()): Promise<string> {
  assertAdmin(admin);
  let picture: Buffer;
  try {
    picture = await encodeImage(bytes, { kind: 'cover', width: BANNER_IMAGE_WIDTH, height: BANNER_IMAGE_HEIGHT, quality: BANNER_QUALITY });
  } catch (error) {
    imageRefusal(error);
  }
  return storeBlob(picture, 'image/webp', { db });
}

/** The refusal for a picture key that is not a stored banner-able picture. */
const badImageKey = () => new AppError('VALIDATION_ERROR', { messageKey: 'banners.errors.badImage', fieldErrors: { imageKey: ['banners.errors.badImage'] } });

/** A key sent back by a form or API client must name a stored public webp (never an ID document: those are private). */
async function assertImageKey(key: string | undefined, db: Database) {
  if (!key) return;
  const [row] = await db.select({ contentType: blobs.contentType }).from(blobs).where(and(eq(blobs.key, key), eq(blobs.private, false)));
  if (!row || row.contentType !== 'image/webp') throw badImageKey();
}

/**
 * The picture of a preview before it is saved, as a data: URL (the page allows data: images): the admin sees
 * exactly the stored picture, which /uploads will serve only once a banner uses it.
 */
export async function bannerImagePreview(admin: Viewer, key: string | undefined, db: Database = getDb()): Promise<string | null> {
  assertAdmin(admin);
  if (!key) return null;
  const [row] = await db.select({ bytes: blobs.bytes, contentType: blobs.contentType }).from(blobs).where(and(eq(blobs.key, key), eq(blobs.private, false)));
  if (!row || row.contentType !== 'image/webp') return null;
  return `data:image/webp;base64,${Buffer.from(row.bytes).toString('base64')}`;
}

function columns(input: BannerInput) {
  return {
    title: input.title,
    titleEn: input.titleEn ?? null,
    titleJa: input.titleJa ?? null,
    subtitle: input.subtitle ?? null,
    subtitleEn: input.subtitleEn ?? null,
    subtitleJa: input.subtitleJa ?? null,
    linkUrl: input.linkUrl ?? null,
    isActive: input.isActive,
    startsAt: input.startsAt ?? null,
    endsAt: input.endsAt ?? null,
    imageKey: input.imageKey ?? null,
  };
}

/** What the audit row keeps of a banner: enough to tell what changed, no picture bytes. */
function auditView(row: Row) {
  return {
    title: row.title,
    titleEn: row.titleEn,
    titleJa: row.titleJa,
    linkUrl: row.linkUrl,
    imageKey: row.imageKey,
    isActive: row.isActive,
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    sortOrder: row.sortOrder,
  };
}

const asDb = (tx: unknown) => tx as Database;

/** A new banner, placed last; audited in the same transaction. */
export async function createBanner(admin: Viewer, input: BannerInput, db: Database = getDb(), at: Date = clockNow()): Promise<Banner> {
  assertAdmin(admin);
  await assertImageKey(input.imageKey, db);
  const id = await db.transaction(async (tx) => {
    // Two admins adding at once: each takes the next place after the other (the table lock orders them).
    await tx.execute(sql`lock table ${banners} in share row exclusive mode`);
    const [last] = await tx.select({ sortOrder: banners.sortOrder }).from(banners).orderBy(desc(banners.sortOrder)).limit(1);
    const [row] = await tx
      .insert(banners)
      .values({ ...columns(input), sortOrder: (last?.sortOrder ?? 0) + 1, createdAt: at, updatedAt: at })
      .returning();
    await recordAudit({ actorId: admin.id, action: 'banner.create', targetType: 'banner', targetId: row!.id, details: { after: auditView(row!) } }, asDb(tx));
    return row!.id;
  });
  return getBanner(admin, id, db, at);
}

async function lockedBanner(tx: Database, id: number): Promise<Row> {
  const [row] = await tx.select().from(banners).where(eq(banners.id, id)).for('update');
  if (!row) throw new AppError('NOT_FOUND', { messageKey: 'banners.errors.notFound' });
  return row;
}

/** Replaces a banner's text, link, picture, switch and window; audited with before and after. */
export async function updateBanner(admin: Viewer, id: number, input: BannerInput, db: Database = getDb(), at: Date = clockNow()): Promise<Banner> {
  assertAdmin(admin);
  await assertImageKey(input.imageKey, db);
  await db.transaction(async (tx) => {
    const before = await lockedBanner(asDb(tx), id);
    const [after] = await tx.update(banners).set({ ...columns(input), updatedAt: at }).where(eq(banners.id, id)).returning();
    await recordAudit(
      { actorId: admin.id, action: 'banner.update', targetType: 'banner', targetId: id, details: { before: auditView(before), after: auditView(after!) } },
      asDb(tx),
    );
  });
  return getBanner(admin, id, db, at);
}

/** Deletes a banner (its picture stays stored: content-addressed, maybe shared); audited with what it was. */
export async function deleteBanner(admin: Viewer, id: number, db: Database = getDb()): Promise<void> {
  assertAdmin(admin);
  await db.transaction(async (tx) => {
    const before = await lockedBanner(asDb(tx), id);
    await tx.delete(banners).where(eq(banners.id, id));
    await recordAudit({ actorId: admin.id, action: 'banner.delete', targetType: 'banner', targetId: id, details: { before: auditView(before) } }, asDb(tx));
  });
}

/**
 * Moves a banner one place up or down in the home page's order (it swaps places with its neighbour); at the top
 * (or bottom) already, nothing changes and nothing is audited. Answers the new order.
 */
export async function moveBanner(admin: Viewer, id: number, direction: 'up' | 'down', db: Database = getDb(), at: Date = clockNow()): Promise<Banner[]> {
  assertAdmin(admin);
  await db.transaction(async (tx) => {
    // The whole order is read and rewritten: one lock for every mover, so two moves never interleave.
    await tx.execute(sql`lock table ${banners} in share row exclusive mode`);
    const order = await tx.select({ id: banners.id, sortOrder: banners.sortOrder }).from(banners).orderBy(asc(banners.sortOrder), asc(banners.id));
    const from = order.findIndex((b) => b.id === id);
    if (from < 0) throw new AppError('NOT_FOUND', { messageKey: 'banners.errors.notFound' });
    const to = direction === 'up' ? from - 1 : from + 1;
    if (to < 0 || to >= order.length) return;
    const ids = order.map((b) => b.id);
    [ids[from], ids[to]] = [ids[to]!, ids[from]!];
    // Places become 1..n (older rows may share a sort order).
    for (const [i, bannerId] of ids.entries()) {
      if (order[i]!.id !== bannerId || order[i]!.sortOrder !== i + 1) {
        await tx.update(banners).set({ sortOrder: i + 1, updatedAt: at }).where(eq(banners.id, bannerId));
      }
    }
    await recordAudit(
      { actorId: admin.id, action: 'banner.move', targetType: 'banner', targetId: id, details: { direction, from: from + 1, to: to + 1 } },
      asDb(tx),
    );
  });
  return listBanners(admin, db, at);
}
