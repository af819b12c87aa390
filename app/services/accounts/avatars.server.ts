import { eq } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { users } from '~db/schema';
import { assertSelfOrAdmin, type Viewer as Actor } from '../platform/access.server';
import { recordAudit, type AuditAction } from '../platform/audit.server';
import { blobUrl, storeBlob } from '../platform/blobs.server';
import { encodeImage, readUploadForm, uploadedBytes } from '../platform/image-pipeline.server';

export { MAX_INPUT_PIXELS, MAX_UPLOAD_BYTES, sniffImageType } from '../platform/image-pipeline.server';
export { readUploadForm, uploadedBytes };

/**
 * Avatars (SPEC §2 Avatar block, §5 Avatar, ARCHITECTURE §6 Images). The browser crops to 100×100 webp when
 * JS runs, but the server trusts nothing it is sent: the bytes must be a JPEG, PNG or WebP by their magic
 * numbers, at most 10 MiB and 25 megapixels (read from the header, before any pixel is decoded), and are
 * always re-encoded here: EXIF rotation applied, centre-cropped to 100×100, webp q90, metadata dropped.
 */
export const AVATAR_SIZE = 100;
export const AVATAR_QUALITY = 90;

/** Checks the upload and turns it into the stored avatar picture (100×100 webp), or throws an AppError. */
export function encodeAvatar(bytes: Buffer): Promise<Buffer> {
  return encodeImage(bytes, { kind: 'square', size: AVATAR_SIZE, quality: AVATAR_QUALITY });
}

/** Only an admin acting on someone else's avatar is worth a line in the audit trail. */
async function audit(actor: Actor, userId: number, action: AuditAction, details: Record<string, unknown>, db: Database) {
  if (actor.id === userId) return;
  await recordAudit({ actorId: actor.id, action, targetType: 'user', targetId: userId, details }, db);
}

/** Sets a user's avatar from uploaded bytes; answers the new picture's URL. */
export async function setAvatar(actor: Actor, userId: number, bytes: Buffer, db: Database = getDb()): Promise<string> {
  await assertSelfOrAdmin(actor, userId, { write: true }, db);
  const picture = await encodeAvatar(bytes);
  const key = await storeBlob(picture, 'image/webp', { db });
  await db.transaction(async (tx) => {
    await tx.update(users).set({ avatarKey: key, updatedAt: new Date() }).where(eq(users.id, userId));
    await audit(actor, userId, 'user.avatar.set', { key }, tx);
  });
  return blobUrl(key)!;
}

/** Clears a user's avatar (the blob stays: it is content-addressed and may be shared). Answers null. */
export async function removeAvatar(actor: Actor, userId: number, db: Database = getDb()): Promise<null> {
  const target = await assertSelfOrAdmin(actor, userId, { write: true }, db);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ avatarKey: null, updatedAt: new Date() }).where(eq(users.id, userId));
    await audit(actor, userId, 'user.avatar.remove', { key: target.avatarKey }, tx);
  });
  return null;
}
