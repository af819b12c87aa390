import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from '@remix-run/node';
import type { Metadata } from 'sharp';
import { AppError } from './errors.server';
import { loadSharp } from './sharp.server';

/**
 * The one image pipeline for every upload (avatars, guide photos, ID documents; ARCHITECTURE §6 Images).
 * The server trusts nothing it is sent: the bytes must be a JPEG, PNG or WebP by their magic numbers, at
 * most 10 MiB and 25 megapixels (read from the header, before any pixel is decoded), and are always
 * re-encoded here to webp with EXIF orientation applied and every piece of metadata (EXIF, GPS, XMP, ICC)
 * dropped. Callers pick the shape: a centre crop (avatars, banners) or a fit inside a box with a byte budget (photos).
 */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024; // 10485760 (SPEC §5 Upload types)
export const MAX_INPUT_PIXELS = 25_000_000;

export type ImageKind = 'jpeg' | 'png' | 'webp';

/** The image type the first bytes announce, or undefined (the file name and declared type are ignored). */
export function sniffImageType(bytes: Uint8Array): ImageKind | undefined {
  const starts = (offset: number, ...sig: number[]) => sig.every((b, i) => bytes[offset + i] === b);
  if (bytes.length >= 3 && starts(0, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (bytes.length >= 8 && starts(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  // RIFF <size> WEBP
  if (bytes.length >= 12 && starts(0, 0x52, 0x49, 0x46, 0x46) && starts(8, 0x57, 0x45, 0x42, 0x50)) return 'webp';
  return undefined;
}

const TOO_MANY_PIXELS = 'avatar.errors.tooManyPixels';

/**
 * The checks that need no decoding: size, magic bytes, a header that agrees with them, and the pixel cap.
 * Throws FILE_TOO_LARGE (413) or INVALID_FILE_TYPE (415).
 */
export async function checkImage(bytes: Buffer): Promise<{ kind: ImageKind; width: number; height: number }> {
  if (bytes.length > MAX_UPLOAD_BYTES) throw new AppError('FILE_TOO_LARGE');
  const kind = sniffImageType(bytes);
  if (!kind) throw new AppError('INVALID_FILE_TYPE');
  // The header alone: metadata() does not decode pixels, so a decompression bomb is refused cheaply.
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    // No pixel limit here (sharp's default one would turn a huge header into an error we cannot tell apart).
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw decodingError(error);
  }
  if (meta.format !== kind || !meta.width || !meta.height) throw new AppError('INVALID_FILE_TYPE');
  if (meta.width * meta.height > MAX_INPUT_PIXELS) throw new AppError('FILE_TOO_LARGE', { messageKey: TOO_MANY_PIXELS });
  return { kind, width: meta.width, height: meta.height };
}

export type ImageShape =
  /** A centre crop to exactly size×size (avatars). */
  | { kind: 'square'; size: number; quality: number }
  /** A centre crop to exactly width×height (home banners). */
  | { kind: 'cover'; width: number; height: number; quality: number }
  /** Fit inside maxSide×maxSide (never enlarged), then lower the quality, and at last the size, until ≤ maxBytes. */
  | { kind: 'fit'; maxSide: number; maxBytes: number };

function decodingError(error: unknown): AppError {
  // The second guard (limitInputPixels) or a corrupt/truncated body.
  if (error instanceof Error && /pixel limit/i.test(error.message)) {
    return new AppError('FILE_TOO_LARGE', { messageKey: TOO_MANY_PIXELS });
  }
  return new AppError('INVALID_FILE_TYPE');
}

/** Checks an upload and re-encodes it to webp in the given shape (no metadata copied), or throws an AppError. */
export async function encodeImage(bytes: Buffer, shape: ImageShape): Promise<Buffer> {
  await checkImage(bytes);
  const sharp = await loadSharp();
  const source = () =>
    sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate(); // EXIF orientation first
  try {
    if (shape.kind === 'square') {
      return await source()
        .resize(shape.size, shape.size, { fit: 'cover', position: 'centre' })
        .webp({ quality: shape.quality })
        .toBuffer(); // no withMetadata(): EXIF, GPS, XMP and ICC are not copied
    }
    if (shape.kind === 'cover') {
      return await source()
        .resize(shape.width, shape.height, { fit: 'cover', position: 'centre' })
        .webp({ quality: shape.quality })
        .toBuffer();
    }
    let side = shape.maxSide;
    for (;;) {
      for (const quality of [82, 70, 58, 46]) {
        const out = await source()
          .resize(side, side, { fit: 'inside', withoutEnlargement: true })
          .webp({ quality })
          .toBuffer();
        if (out.length <= shape.maxBytes || side <= 200) return out;
      }
      side = Math.round(side * 0.75);
    }
  } catch (error) {
    throw decodingError(error);
  }
}

/**
 * Reads a form post that may carry files: multipart bodies are streamed with a 10 MiB cap per part (a
 * bigger part is FILE_TOO_LARGE, and the upload is not buffered past the cap), other bodies are read as
 * usual. `fields` holds the text fields seen so far even when reading failed, so the caller can still tell
 * whether a JSON answer was asked for.
 */
export async function readUploadForm(request: Request, fields: Map<string, string> = new Map()): Promise<FormData> {
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

/** The uploaded file's bytes from a form field, or VALIDATION_ERROR (with this message) when none was sent. */
export async function uploadedBytes(form: FormData, field: string, messageKey = 'avatar.errors.noFile'): Promise<Buffer> {
  const file = form.get(field);
  if (!file || typeof file === 'string' || file.size === 0) {
    throw new AppError('VALIDATION_ERROR', { messageKey, fieldErrors: { [field]: [messageKey] } });
  }
  return Buffer.from(await file.arrayBuffer());
}
