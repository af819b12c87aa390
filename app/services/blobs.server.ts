import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { blobs } from '~db/schema';

/**
 * Content-addressed storage: the key is the sha256 of the bytes, so storing the same image twice is free.
 * Private blobs (ID documents) are addressed in their own space (the hash of a prefix and the bytes), so a
 * private file never shares a row, and so a public flag, with a public picture of the same bytes.
 */
export async function storeBlob(
  bytes: Buffer,
  contentType: string,
  options: { private?: boolean; db?: Database } = {},
): Promise<string> {
  const db = options.db ?? getDb();
  const hash = crypto.createHash('sha256');
  if (options.private) hash.update('private\0');
  const key = hash.update(bytes).digest('hex');
  await db
    .insert(blobs)
    .values({ key, contentType, bytes, size: bytes.length, private: options.private ?? false })
    .onConflictDoNothing();
  return key;
}

/** A public blob by key, or undefined (private blobs are never served by this path). */
export async function getPublicBlob(key: string) {
  if (!/^[0-9a-f]{64}$/.test(key)) return undefined;
  const [row] = await getDb()
    .select({ contentType: blobs.contentType, bytes: blobs.bytes })
    .from(blobs)
    .where(and(eq(blobs.key, key), eq(blobs.private, false)));
  return row;
}

export function blobUrl(key: string | null | undefined): string | null {
  return key ? `/uploads/${key}.webp` : null;
}

/** A private blob by key (ID documents), or undefined; the caller has already decided who may see it. */
export async function getPrivateBlob(key: string, db: Database = getDb()) {
  if (!/^[0-9a-f]{64}$/.test(key)) return undefined;
  const [row] = await db
    .select({ contentType: blobs.contentType, bytes: blobs.bytes })
    .from(blobs)
    .where(and(eq(blobs.key, key), eq(blobs.private, true)));
  return row;
}
