import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { banners, blobs, photos, users } from '~db/schema';

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

/** The stored hex key of a URL's key: the hex itself or, as in the URLs `blobUrl` writes, base64url. */
function storedKey(urlKey: string): string | undefined {
  const key = /^[\w-]{43}$/.test(urlKey) ? Buffer.from(urlKey, 'base64url').toString('hex') : urlKey;
  return /^[0-9a-f]{64}$/.test(key) ? key : undefined;
}

type UploadViewer = Pick<typeof users.$inferSelect, 'id' | 'type'>;

export interface Upload {
  contentType: string;
  bytes: Buffer;
  /**
   * `public`: an avatar, a banner or an approved photo uses the bytes, so anyone may have them and keep them
   * for good (the key is the hash: it never means other bytes). `restricted`: only photos that are not approved
   * use them, and the viewer is one of their guides or an admin; never to be cached.
   */
  audience: 'public' | 'restricted';
}

/**
 * What `/uploads/<key>.webp` may answer, and to whom (issue 21). A blob is public while something public uses
 * it: a user's avatar, a banner, or an approved photo. Bytes only photos awaiting review or rejected use are
 * for those photos' guides and admins. Bytes nothing uses any more (a deleted photo, a replaced avatar) and
 * private blobs (ID documents) are for nobody: undefined, which the server answers 404. The same bytes may
 * stand behind several records (content-addressed): one public use makes them public, as anyone could fetch
 * them through that use anyway. `viewer` is asked only when the answer depends on who is asking.
 */
export async function findUpload(
  urlKey: string,
  viewer: () => Promise<UploadViewer | undefined>,
  db: Database = getDb(),
): Promise<Upload | undefined> {
  const key = storedKey(urlKey);
  if (!key) return undefined;
  const [row] = await db
    .select({
      contentType: blobs.contentType,
      bytes: blobs.bytes,
      isPublic: sql<boolean>`(
        exists (select 1 from ${photos} where ${photos.blobKey} = ${blobs.key} and ${photos.status} = 'approved')
        or exists (select 1 from ${users} where ${users.avatarKey} = ${blobs.key})
        or exists (select 1 from ${banners} where ${banners.imageKey} = ${blobs.key})
      )`,
    })
    .from(blobs)
    .where(and(eq(blobs.key, key), eq(blobs.private, false)));
  if (!row) return undefined;
  const { contentType, bytes } = row;
  if (row.isPublic) return { contentType, bytes, audience: 'public' };
  const uses = await db.select({ guideId: photos.guideId }).from(photos).where(eq(photos.blobKey, key));
  if (uses.length === 0) return undefined;
  const who = await viewer();
  if (!who || (who.type !== 'admin' && !uses.some((u) => u.guideId === who.id))) return undefined;
  return { contentType, bytes, audience: 'restricted' };
}

/** A blob anyone may see (see `findUpload`), or undefined. */
export async function getPublicBlob(urlKey: string, db: Database = getDb()) {
  const upload = await findUpload(urlKey, async () => undefined, db);
  return upload?.audience === 'public' ? upload : undefined;
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
