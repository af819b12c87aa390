import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { photos, users } from '~db/schema';
import { blobUrl } from '~/services/platform/blobs.server';
import { loginAs } from '../../support/api';
import { createAvatar, createGuide, createPhoto, createTraveler, createUser } from '~server/seed/factories';
import { useTestServer, type TestResponse } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 21 over real HTTP: who `/uploads/<key>.webp` answers. Avatars, banners and approved photos are public and
 * cached for good; a photo awaiting review or rejected is for its guide and admins only, never cached; bytes that
 * nothing uses any more (a deleted photo) are for nobody. Content-addressed keys: one public use makes the bytes
 * public.
 */
useTestDatabase();
const server = useTestServer();

const PUBLIC = 'public, max-age=31536000, immutable';
const PRIVATE = 'private, no-store';

type Who = { token?: string; cookie?: string };

function expectPublic(res: TestResponse, label = '') {
  expect(res.status, label).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/webp');
  expect(res.headers.get('cache-control'), label).toBe(PUBLIC);
  expect(res.headers.get('etag')).toMatch(/^"[\w-]+"$/);
}

function expectPrivate(res: TestResponse, label = '') {
  expect(res.status, label).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/webp');
  expect(res.headers.get('cache-control'), label).toBe(PRIVATE);
  expect(res.headers.get('etag'), label).toBeNull();
}

function expectNone(res: TestResponse, label = '') {
  expect(res.status, label).toBe(404);
  expect(res.headers.get('cache-control'), label).toBe('no-store');
  expect(res.text).toBe('');
}

async function people() {
  const guide = await createGuide();
  const [owner, admin, traveler, otherGuide] = [
    await loginAs(guide),
    await loginAs(await createUser({ type: 'admin' })),
    await loginAs(await createTraveler()),
    await loginAs(await createGuide()),
  ];
  return {
    guide,
    admin,
    // Owner and admin, by cookie (what an <img> sends) and by bearer token.
    allowed: { 'owner (cookie)': { cookie: owner.cookie }, 'owner (token)': { token: owner.token }, 'admin (cookie)': { cookie: admin.cookie }, 'admin (token)': { token: admin.token } } as Record<string, Who>,
    refused: { anonymous: {}, traveler: { cookie: traveler.cookie }, 'other guide (cookie)': { cookie: otherGuide.cookie }, 'other guide (token)': { token: otherGuide.token } } as Record<string, Who>,
    owner,
  };
}

const get = (url: string, who: Who = {}, headers: Record<string, string> = {}) => server.request(url, { ...who, headers });

describe(`/uploads: who sees which picture (${testDriver})`, () => {
  it('a photo awaiting review or rejected: its guide and admins (private, no-store), nobody else (404)', async () => {
    const { guide, allowed, refused } = await people();
    for (const status of ['pending_review', 'rejected'] as const) {
      const photo = await createPhoto(guide.id, { status });
      const url = blobUrl(photo.blobKey)!;
      for (const [label, who] of Object.entries(refused)) expectNone(await get(url, who), `${status} ${label}`);
      for (const [label, who] of Object.entries(allowed)) expectPrivate(await get(url, who), `${status} ${label}`);
      // The hex form of the key is the same picture, under the same rule.
      expectNone(await get(`/uploads/${photo.blobKey}.webp`), `${status} hex anonymous`);
      expectPrivate(await get(`/uploads/${photo.blobKey}.webp`, allowed['owner (cookie)']), `${status} hex owner`);
    }
  });

  it('an approved photo and an avatar are public and cached for good; approving opens a pending photo to all', async () => {
    const { guide, admin, refused, allowed } = await people();
    const approved = await createPhoto(guide.id, { status: 'approved' });
    for (const [label, who] of Object.entries({ ...refused, ...allowed })) expectPublic(await get(blobUrl(approved.blobKey)!, who), label);
    const etag = (await get(blobUrl(approved.blobKey)!)).headers.get('etag')!;
    expect((await get(blobUrl(approved.blobKey)!, {}, { 'if-none-match': etag })).status).toBe(304);

    const avatarKey = await createAvatar(42);
    await getDb().update(users).set({ avatarKey }).where(eq(users.id, guide.id));
    expectPublic(await get(blobUrl(avatarKey)!), 'avatar');

    const pending = await createPhoto(guide.id, { status: 'pending_review' });
    expectNone(await get(blobUrl(pending.blobKey)!));
    const review = await server.request(`/api/v1/photos/${pending.id}`, { method: 'PATCH', token: admin.token, json: { status: 'approved' } });
    expect(review.status).toBe(200);
    expectPublic(await get(blobUrl(pending.blobKey)!), 'after approval');
  });

  it('a deleted photo is served to nobody, whatever its status was', async () => {
    const { guide, admin, owner, allowed } = await people();
    const pending = await createPhoto(guide.id, { status: 'pending_review' });
    const approved = await createPhoto(guide.id, { status: 'approved' });
    expect((await server.request(`/api/v1/photos/${pending.id}`, { method: 'DELETE', token: owner.token })).status).toBe(200);
    expect((await server.request(`/api/v1/photos/${approved.id}`, { method: 'DELETE', token: admin.token })).status).toBe(200);
    for (const key of [pending.blobKey, approved.blobKey]) {
      expectNone(await get(blobUrl(key)!), 'anonymous');
      for (const [label, who] of Object.entries(allowed)) expectNone(await get(blobUrl(key)!, who), label);
    }
    // Unknown keys and junk are 404 too.
    expectNone(await get(`/uploads/${'0'.repeat(64)}.webp`));
    expectNone(await get('/uploads/not-a-key.webp'));
  });

  it('the same bytes behind several records: one public use makes them public; otherwise each photo’s guide may see them', async () => {
    const a = await people();
    const b = await people();
    // The factory draws the same landscape for the same seed: one blob, two photos.
    const pendingA = await createPhoto(a.guide.id, { status: 'pending_review', seed: 9001 });
    const rejectedB = await createPhoto(b.guide.id, { status: 'rejected', seed: 9001 });
    expect(rejectedB.blobKey).toBe(pendingA.blobKey);
    const url = blobUrl(pendingA.blobKey)!;
    expectPrivate(await get(url, a.allowed['owner (cookie)']), 'guide A');
    expectPrivate(await get(url, b.allowed['owner (cookie)']), 'guide B');
    expectNone(await get(url, a.refused.traveler), 'traveler');
    expectNone(await get(url), 'anonymous');

    // Once one of the photos is approved, the bytes are public, the other photo still not approved.
    await getDb().update(photos).set({ status: 'approved' }).where(eq(photos.id, rejectedB.id));
    expectPublic(await get(url), 'approved elsewhere');
    // Deleting the approved one closes them again; only guide A (and admins) may see them.
    expect((await server.request(`/api/v1/photos/${rejectedB.id}`, { method: 'DELETE', token: b.admin.token })).status).toBe(200);
    expectNone(await get(url), 'anonymous after delete');
    expectNone(await get(url, b.allowed['owner (cookie)']), 'guide B after delete');
    expectPrivate(await get(url, a.allowed['owner (cookie)']), 'guide A after delete');

    // The same bytes as someone's avatar: that avatar is public, so are they.
    await getDb().update(users).set({ avatarKey: pendingA.blobKey }).where(eq(users.id, b.guide.id));
    expectPublic(await get(url), 'used as an avatar');
  });
});
