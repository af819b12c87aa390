import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from '@remix-run/node';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { getDb, type Database } from '~db/client';
import { users } from '~db/schema';
import { assertSelfOrAdmin, type Viewer as Actor } from './access.server';
import { recordAudit } from './audit.server';
import { blobUrl, storeBlob } from './blobs.server';
import { AppError } from './errors.server';

/**
 * Avatars (SPEC §2 Avatar block, §5 Avatar, ARCHITECTURE §6 Images). The browser crops to 100×100 webp when
 * JS runs, but the server trusts nothing it is sent: the bytes must be a JPEG, PNG or WebP by their magic
 * numbers, at most 10 MiB and 25 megapixels (read from the header, before any pixel is decoded), and are
 * always re-encoded here: EXIF rotation applied, centre-cropped to 100×100, webp q90, metadata dropped.
 */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024; // 10485760 (SPEC §5 Upload types)
export const MAX_INPUT_PIXELS = 25_000_000;
export const AVATAR_SIZE = 100;
export const AVATAR_QUALITY = 90;

type ImageKind = 'jpeg' | 'png' | 'webp';

/** The image type the first bytes announce, or undefined (the file name and declared type are ignored). */
export function sniffImageType(bytes: Uint8Array): ImageKind | undefined {
  const starts = (offset: number, ...sig: number[]) => sig.every((b, i) => bytes[offset + i] === b);
  if (bytes.length >= 3 && starts(0, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (bytes.length >= 8 && starts(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  // RIFF <size> WEBP
  if (bytes.length >= 12 && starts(0, 0x52, 0x49, 0x46, 0x46) && starts(8, 0x57, 0x45, 0x42, 0x50)) return 'webp';
  return undefined;
}

/** Checks the upload and turns it into the stored avatar picture (100×100 webp), or throws an AppError. */
export async function encodeAvatar(bytes: Buffer): Promise<Buffer> {
  if (bytes.length > MAX_UPLOAD_BYTES) throw new AppError('FILE_TOO_LARGE');
  const kind = sniffImageType(bytes);
  if (!kind) throw new AppError('INVALID_FILE_TYPE');

  // The header alone: metadata() does not decode pixels, so a decompression bomb is refused cheaply.
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    meta = await sharp(bytes).metadata();
  } catch {
    throw new AppError('INVALID_FILE_TYPE');
  }
  if (meta.format !== kind || !meta.width || !meta.height) throw new AppError('INVALID_FILE_TYPE');
  if (meta.width * meta.height > MAX_INPUT_PIXELS) {
    throw new AppError('FILE_TOO_LARGE', { messageKey: 'avatar.errors.tooManyPixels' });
  }

  try {
    return await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate() // EXIF orientation, before the crop
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'centre' })
      .webp({ quality: AVATAR_QUALITY })
      .toBuffer(); // no withMetadata(): EXIF, XMP and ICC are not copied
  } catch (error) {
    // The second guard (limitInputPixels) or a corrupt/truncated body.
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new AppError('FILE_TOO_LARGE', { messageKey: 'avatar.errors.tooManyPixels' });
    }
    throw new AppError('INVALID_FILE_TYPE');
  }
}

/** Only an admin acting on someone else's avatar is worth a line in the audit trail. */
async function audit(actor: Actor, userId: number, action: string, details: Record<string, unknown>, db: Database) {
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

/**
 * Reads a form post that may carry a picture: multipart bodies are streamed with a 10 MiB cap per part (a
 * bigger part is FILE_TOO_LARGE, and the upload is not buffered past the cap), other bodies are read as
 * usual. `fields` holds the text fields seen so far even when reading failed, so the caller can still tell
 * whether a JSON answer was asked for.
 */
export async function readUploadForm(
  request: Request,
  fields: Map<string, string> = new Map(),
): Promise<FormData> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('multipart/form-data')) {
    try {
      const form = await request.formData();
      for (const [k, v] of form) if (typeof v === 'string') fields.set(k, v);
      return form;
    } catch {
      throw new AppError('VALIDATION_ERROR');
    }
  }
  const memory = unstable_createMemoryUploadHandler({ maxPartSize: MAX_UPLOAD_BYTES });
  try {
    return await unstable_parseMultipartFormData(request, async (part) => {
      const value = await memory(part);
      if (typeof value === 'string') fields.set(part.name, value);
      return value;
    });
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) throw new AppError('FILE_TOO_LARGE');
    throw new AppError('VALIDATION_ERROR');
  }
}

/** The uploaded picture's bytes from a form field, or VALIDATION_ERROR when no file was sent. */
export async function uploadedBytes(form: FormData, field: string): Promise<Buffer> {
  const file = form.get(field);
  if (!file || typeof file === 'string' || file.size === 0) {
    throw new AppError('VALIDATION_ERROR', { messageKey: 'avatar.errors.noFile', fieldErrors: { [field]: ['avatar.errors.noFile'] } });
  }
  return Buffer.from(await file.arrayBuffer());
}
