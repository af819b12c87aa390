import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { photos, users } from '~db/schema';
import { MAX_PHOTOS_PER_GUIDE, PHOTO_MAX_BYTES, PHOTO_MAX_SIDE, type PhotoView } from '~/schemas/trust';
import type { PhotoStatus } from '~/lib/trust-statuses';
import type { Viewer } from '../platform/access.server';
import { recordAudit } from '../platform/audit.server';
import { blobUrl, storeBlob } from '../platform/blobs.server';
import { AppError } from '../platform/errors.server';
import { encodeImage } from '../platform/image-pipeline.server';
import { recordNotice } from '../messaging/trust-notices.server';
import type { UserRow } from '../accounts/users.server';

/*
 * A guide's photos (SPEC §2 Guide photo gallery, §4 Photo review, §5 Photos, issue 11). Only ID-verified
 * guides (or admins, for any guide) upload; at most 4 per guide; every upload is re-encoded to webp
 * (≤ 1200 px, ≤ 0.5 MB, metadata stripped) and stored content-addressed. A new photo waits for an admin;
 * the public sees approved photos only. A guide deletes their own photos that are not approved.
 */

type PhotoRow = typeof photos.$inferSelect;

export function toPhotoView(row: PhotoRow): PhotoView {
  return {
    id: row.id,
    guideId: row.guideId,
    url: blobUrl(row.blobKey)!,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    rejectionReason: row.status === 'rejected' ? row.rejectionReason : null,
  };
}

/** How many of a guide's photos are approved and how many wait for review. */
export async function countGuidePhotos(guideId: number, db: Database = getDb()): Promise<{ approved: number; pending: number }> {
  const [row] = await db
    .select({
      approved: sql<number>`count(*) filter (where ${photos.status} = 'approved')`.mapWith(Number),
      pending: sql<number>`count(*) filter (where ${photos.status} = 'pending_review')`.mapWith(Number),
    })
    .from(photos)
    .where(eq(photos.guideId, guideId));
  return { approved: row?.approved ?? 0, pending: row?.pending ?? 0 };
}

/** The public photos of a guide (the guide page, `all=0`): approved only, oldest first. */
export async function listApprovedPhotos(guideId: number, db: Database = getDb()): Promise<PhotoView[]> {
  const rows = await db
    .select()
    .from(photos)
    .where(and(eq(photos.guideId, guideId), eq(photos.status, 'approved')))
    .orderBy(asc(photos.createdAt), asc(photos.id));
  return rows.map(toPhotoView);
}

/** Every photo of a guide, whatever its status (the guide's own gallery, admins). */
export async function listAllGuidePhotos(guideId: number, db: Database = getDb()): Promise<PhotoView[]> {
  const rows = await db.select().from(photos).where(eq(photos.guideId, guideId)).orderBy(asc(photos.createdAt), asc(photos.id));
  return rows.map(toPhotoView);
}

async function findGuide(guideId: number, db: Database): Promise<UserRow> {
  const [guide] = Number.isSafeInteger(guideId) && guideId > 0 ? await db.select().from(users).where(eq(users.id, guideId)) : [];
  if (!guide || guide.type !== 'guide') throw new AppError('GUIDE_NOT_FOUND');
  return guide;
}

/** GET /api/v1/photos?guideId&all: `all=1` is for the guide itself and admins. */
export async function listPhotos(viewer: Viewer | undefined, guideId: number, all: boolean, db: Database = getDb()): Promise<PhotoView[]> {
  if (all) {
    if (!viewer) throw new AppError('UNAUTHORIZED');
    if (viewer.type !== 'admin' && viewer.id !== guideId) throw new AppError('FORBIDDEN');
  }
  const guide = await findGuide(guideId, db);
  if (guide.deletedAt && viewer?.type !== 'admin') throw new AppError('GUIDE_NOT_FOUND');
  return all ? listAllGuidePhotos(guideId, db) : listApprovedPhotos(guideId, db);
}

/**
 * The checks that need no body (routes call this before reading a possibly large upload): a guide uploads
 * for themselves once ID-verified; an admin for any guide; anyone else is refused with VERIFICATION_REQUIRED
 * (SPEC §8: '請先完成身份認證才能上傳照片'); the 4-photo cap.
 */
export async function assertMayUploadPhoto(actor: UserRow, guideId: number, db: Database = getDb()): Promise<UserRow> {
  if (actor.type !== 'admin') {
    if (actor.type !== 'guide' || !actor.isIdVerified) throw new AppError('VERIFICATION_REQUIRED', { messageKey: 'trust.photos.errors.verificationRequired' });
    if (actor.id !== guideId) throw new AppError('FORBIDDEN');
  }
  const guide = await findGuide(guideId, db);
  if (guide.deletedAt) throw new AppError('GUIDE_NOT_FOUND');
  const [row] = await db.select({ n: count() }).from(photos).where(eq(photos.guideId, guideId));
  if ((row?.n ?? 0) >= MAX_PHOTOS_PER_GUIDE) throw tooMany();
  return guide;
}

const tooMany = () =>
  new AppError('VALIDATION_ERROR', {
    messageKey: 'trust.photos.errors.tooMany',
    params: { max: MAX_PHOTOS_PER_GUIDE },
    fieldErrors: { photo: ['trust.photos.errors.tooMany'] },
  });

/** POST /api/v1/photos and the /me gallery form: a new photo awaiting review (201). */
export async function uploadPhoto(actor: UserRow, guideId: number, bytes: Buffer, db: Database = getDb()): Promise<PhotoView> {
  await assertMayUploadPhoto(actor, guideId, db);
  const picture = await encodeImage(bytes, { kind: 'fit', maxSide: PHOTO_MAX_SIDE, maxBytes: PHOTO_MAX_BYTES });
  const key = await storeBlob(picture, 'image/webp', { db });
  const row = await db.transaction(async (tx) => {
    // Simultaneous uploads take turns on the guide's row, so the cap holds.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, guideId)).for('update');
    const [row] = await tx.select({ n: count() }).from(photos).where(eq(photos.guideId, guideId));
    if ((row?.n ?? 0) >= MAX_PHOTOS_PER_GUIDE) throw tooMany();
    const [inserted] = await tx.insert(photos).values({ guideId, blobKey: key, status: 'pending_review' }).returning();
    await recordAudit({ actorId: actor.id, action: 'photo.upload', targetType: 'photo', targetId: inserted!.id, details: { guideId, key } }, tx);
    return inserted!;
  });
  return toPhotoView(row);
}

/** DELETE /api/v1/photos/{id}: a guide deletes their own photos that are not approved; an admin any. */
export async function deletePhoto(actor: Viewer, id: number, db: Database = getDb()): Promise<{ id: number }> {
  await db.transaction(async (tx) => {
    const [photo] = Number.isSafeInteger(id) && id > 0 ? await tx.select().from(photos).where(eq(photos.id, id)).for('update') : [];
    if (!photo) throw new AppError('NOT_FOUND');
    if (actor.type !== 'admin') {
      if (photo.guideId !== actor.id) throw new AppError('FORBIDDEN');
      if (photo.status === 'approved') throw new AppError('FORBIDDEN', { messageKey: 'trust.photos.errors.approvedStays' });
    }
    await tx.delete(photos).where(eq(photos.id, id));
    await recordAudit({ actorId: actor.id, action: 'photo.delete', targetType: 'photo', targetId: id, details: { guideId: photo.guideId, status: photo.status } }, tx);
  });
  return { id };
}

/** PATCH /api/v1/photos/{id} (admin): approve or reject (optional reason); audited, the guide is told. */
export async function reviewPhoto(
  admin: Viewer,
  id: number,
  decision: { status: 'approved' | 'rejected'; reason?: string },
  db: Database = getDb(),
): Promise<PhotoView> {
  const { photo } = await db.transaction(async (tx) => {
    const [found] = Number.isSafeInteger(id) && id > 0
      ? await tx.select({ photo: photos, guide: users }).from(photos).innerJoin(users, eq(users.id, photos.guideId)).where(eq(photos.id, id)).for('update')
      : [];
    if (!found) throw new AppError('NOT_FOUND');
    const [photo] = await tx.update(photos).set({ status: decision.status, reviewedAt: new Date(), rejectionReason: decision.status === 'rejected' ? (decision.reason ?? null) : null }).where(eq(photos.id, id)).returning();
    await recordAudit(
      { actorId: admin.id, action: `photo.${decision.status === 'approved' ? 'approve' : 'reject'}`, targetType: 'photo', targetId: id, details: { guideId: found.guide.id, reason: decision.reason ?? null } },
      tx,
    );
    await recordNotice(found.guide, decision.status === 'approved' ? 'photoApproved' : 'photoRejected', { reason: decision.reason ?? '' }, tx);
    return { photo: photo!, guide: found.guide };
  });
  return toPhotoView(photo);
}

/** The batch approve of /admin/photo-review: each photo as reviewPhoto would; answers how many. */
export async function approvePhotos(admin: Viewer, ids: number[], db: Database = getDb()): Promise<number> {
  let n = 0;
  for (const id of ids) {
    await reviewPhoto(admin, id, { status: 'approved' }, db);
    n++;
  }
  return n;
}

export interface AdminPhoto extends PhotoView {
  guideName: string;
  guideEmail: string;
}

/** /admin/photo-review (pending, oldest first) and /admin/photos (any status, filtered). */
export async function listPhotosForAdmin(filter: { status?: PhotoStatus; guideId?: number } = {}, db: Database = getDb()): Promise<AdminPhoto[]> {
  const where = and(
    filter.status ? eq(photos.status, filter.status) : undefined,
    filter.guideId ? eq(photos.guideId, filter.guideId) : undefined,
  );
  const rows = await db
    .select({ photo: photos, guideName: users.name, guideEmail: users.email })
    .from(photos)
    .innerJoin(users, eq(users.id, photos.guideId))
    .where(where)
    .orderBy(filter.status === 'pending_review' ? asc(photos.createdAt) : desc(photos.createdAt), asc(photos.id))
    .limit(500);
  return rows.map((r) => ({ ...toPhotoView(r.photo), guideName: r.guideName, guideEmail: r.guideEmail }));
}
