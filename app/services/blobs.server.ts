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

/**
 * A public blob by key, or undefined (private blobs are never served by this path). The key is the stored hex
 * or, as in the URLs `blobUrl` writes, the same 32 bytes in base64url.
 */
export async function getPublicBlob(urlKey: string) {
  const key = /^[\w-]{43}$/.test(urlKey) ? Buffer.from(urlKey, 'base64url').toString('hex') : urlKey;
  if (!/^[0-9a-f]{64}$/.test(key)) return undefined;
  const [row] = await getDb()
    .select({ contentType: blobs.contentType, bytes: blobs.bytes })
    .from(blobs)
    .where(and(eq(blobs.key, key), eq(blobs.private, false)));
  return row;
}

/**
 * The public URL of a blob: its key in base64url (43 characters) rather than hex (64). A key is 32 random-looking
 * bytes gzip cannot shrink, and every avatar on a page is in its HTML twice (the picture and the loader data):
 * in base64url the ten cards of /guides weigh 94 bytes less after gzip (issue 8). Hex URLs keep working.
 */
export function blobUrl(key: string | null | undefined): string | null {
  return key ? `/uploads/${Buffer.from(key, 'hex').toString('base64url')}.webp` : null;
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
