import zlib from 'node:zlib';
import { and, count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, blobs, idVerifications, notifications, photos, users } from '~db/schema';
import type { UserRow } from '~/services/accounts/users.server';
import { loginAs } from '../support/api';
import { createGuide, createPhoto, createTraveler, createUser } from '~server/seed/factories';
import { useTestServer, type TestResponse } from '../support/http-server';
import { mailCausedBy, useSmtpSink } from '../support/mail';
import { expectContract } from '../support/openapi';
import { useTestDatabase } from '../support/test-database';
import { blobUrl } from '~/services/platform/blobs.server';

/**
 * Issue 11 (trust) over real HTTP, on either driver: photo uploads and their refusals (nothing stored),
 * the review, private ID documents, the whole application → reject → apply again → approve flow with
 * notifications and mails, guide standing, and every admin route refused to everyone else.
 */
useTestDatabase();
const server = useTestServer();
const mail = useSmtpSink();

async function picture(format: 'png' | 'jpeg' | 'webp', width = 640, height = 400, options: { exif?: boolean } = {}) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g"><stop offset="0" stop-color="#0a0"/><stop offset="1" stop-color="#00f"/></linearGradient></defs>
    <rect width="${width}" height="${height}" fill="url(#g)"/><circle cx="${width / 3}" cy="${height / 2}" r="${height / 4}" fill="#fc0"/></svg>`;
  let image = sharp(Buffer.from(svg));
  if (options.exif) {
    image = image.withExif({
      IFD0: { Copyright: 'secret camera owner', Make: 'TestCam' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '25/1 2/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '121/1 33/1 0/1' },
    });
  }
  return image.toFormat(format).toBuffer();
}

/** A PNG whose header declares width×height pixels (and holds none): a decompression bomb's announcement. */
function pngDeclaring(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32 ? zlib.crc32(body) : crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function form(files: Record<string, { bytes: Buffer; name?: string; type?: string }>, fields: Record<string, string> = {}) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const [k, v] of Object.entries(files)) {
    f.append(k, new File([new Uint8Array(v.bytes)], v.name ?? `${k}.png`, { type: v.type ?? 'image/png' }));
  }
  return f;
}

function expectApi(res: TestResponse, status: number, code?: string) {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.json?.success).toBe(status < 400);
  if (code) expect(res.json.code).toBe(code);
}

async function n(table: typeof photos | typeof blobs | typeof idVerifications, where?: ReturnType<typeof eq>) {
  const [row] = await getDb().select({ n: count() }).from(table).where(where);
  return Number(row!.n);
}

async function uploadAs(token: string, bytes: Buffer, fields: Record<string, string> = {}, name = 'photo.png', type = 'image/png') {
  return server.request('/api/v1/photos', { method: 'POST', token, body: form({ photo: { bytes, name, type } }, fields) });
}

describe('photo uploads', () => {
  it('stores a webp of at most 1200 px and 0.5 MB without EXIF or GPS, pending review (201, in the contract)', async () => {
    const guide = await createGuide();
    const { token } = await loginAs(guide);
    const res = await uploadAs(token, await picture('jpeg', 2400, 1600, { exif: true }), {}, 'holiday.jpg', 'image/jpeg');
    expectApi(res, 201);
    await expectContract(server, 'POST', '/api/v1/photos', res);
    expect(res.json.data.photo).toMatchObject({ guideId: guide.id, status: 'pending_review' });
    const [row] = await getDb().select().from(photos).where(eq(photos.id, res.json.data.photo.id));
    const [blob] = await getDb().select().from(blobs).where(eq(blobs.key, row!.blobKey));
    expect(blob!.contentType).toBe('image/webp');
    expect(blob!.size).toBeLessThanOrEqual(500 * 1024);
    const meta = await sharp(blob!.bytes).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width!, meta.height!)).toBe(1200);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(blob!.bytes.includes(Buffer.from('secret camera owner'))).toBe(false);
    // The public list does not show it yet; the guide's own list does.
    const publicList = await server.request(`/api/v1/photos?guideId=${guide.id}`);
    expectApi(publicList, 200);
    expect(publicList.json.data.photos).toEqual([]);
    const own = await server.request(`/api/v1/photos?guideId=${guide.id}&all=1`, { token });
    expect(own.json.data.photos.map((p: { id: number }) => p.id)).toEqual([row!.id]);
    await expectContract(server, 'GET', '/api/v1/photos', own);
  });

  it('refuses travelers, unverified guides, a fifth photo, text renamed .png, > 10 MiB and a 100000×100000 PNG, storing nothing', async () => {
    const traveler = await createTraveler();
    const unverified = await createGuide({ isIdVerified: false, idVerificationType: null, idVerifiedAt: null });
    const full = await createGuide();
    for (let i = 0; i < 4; i++) await createPhoto(full.id, { status: i ? 'pending_review' : 'approved' });
    const guide = await createGuide();
    const png = await picture('png');
    const before = { photos: await n(photos), blobs: await n(blobs) };

    const cases: Array<[UserRow, () => Promise<TestResponse>, number, string]> = [];
    const as = async (u: UserRow) => (await loginAs(u)).token;
    const tTraveler = await as(traveler);
    const tUnverified = await as(unverified);
    const tFull = await as(full);
    const tGuide = await as(guide);
    cases.push([traveler, () => uploadAs(tTraveler, png), 403, 'VERIFICATION_REQUIRED']);
    cases.push([unverified, () => uploadAs(tUnverified, png), 403, 'VERIFICATION_REQUIRED']);
    cases.push([full, () => uploadAs(tFull, png), 400, 'VALIDATION_ERROR']);
    cases.push([guide, () => uploadAs(tGuide, Buffer.from('just some text, not an image at all'), {}, 'fake.png'), 415, 'INVALID_FILE_TYPE']);
    cases.push([guide, () => uploadAs(tGuide, Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 + 1)])), 413, 'FILE_TOO_LARGE']);
    cases.push([guide, () => uploadAs(tGuide, pngDeclaring(100_000, 100_000)), 413, 'FILE_TOO_LARGE']);
    for (const [, send, status, code] of cases) {
      const res = await send();
      expectApi(res, status, code);
    }
    const refused = await uploadAs(tTraveler, png, {}, 'a.png');
    expect(refused.json.message).toBe('請先完成身份認證才能上傳照片');
    const fifth = await server.request('/api/v1/photos', { method: 'POST', token: tFull, body: form({ photo: { bytes: png } }), headers: { 'accept-language': 'en' } });
    expect(fifth.json.message).toBe('At most 4 photos can be uploaded');
    expect(await n(photos)).toBe(before.photos);
    expect(await n(blobs)).toBe(before.blobs);
  });

  it('a guide deletes own photos that are not approved, never an approved one or another guide’s', async () => {
    const guide = await createGuide();
    const other = await createGuide();
    const approved = await createPhoto(guide.id, { status: 'approved' });
    const pending = await createPhoto(guide.id, { status: 'pending_review' });
    const others = await createPhoto(other.id, { status: 'pending_review' });
    const { token } = await loginAs(guide);
    expectApi(await server.request(`/api/v1/photos/${approved.id}`, { method: 'DELETE', token }), 403, 'FORBIDDEN');
    expectApi(await server.request(`/api/v1/photos/${others.id}`, { method: 'DELETE', token }), 403, 'FORBIDDEN');
    expectApi(await server.request(`/api/v1/photos/999999`, { method: 'DELETE', token }), 404, 'NOT_FOUND');
    const del = await server.request(`/api/v1/photos/${pending.id}`, { method: 'DELETE', token });
    expectApi(del, 200);
    await expectContract(server, 'DELETE', '/api/v1/photos/{id}', del);
    expect(await n(photos, eq(photos.guideId, guide.id))).toBe(1);
    expect(await n(photos, eq(photos.id, others.id))).toBe(1);
  });

  it('all=1 is for the guide and admins: 401 anonymous, 403 another guide or traveler', async () => {
    const guide = await createGuide();
    await createPhoto(guide.id, { status: 'approved' });
    await createPhoto(guide.id, { status: 'pending_review' });
    const other = await createGuide();
    const admin = await createUser({ type: 'admin' });
    expectApi(await server.request(`/api/v1/photos?guideId=${guide.id}&all=1`), 401, 'UNAUTHORIZED');
    expectApi(await server.request(`/api/v1/photos?guideId=${guide.id}&all=1`, { token: (await loginAs(other)).token }), 403, 'FORBIDDEN');
    const byAdmin = await server.request(`/api/v1/photos?guideId=${guide.id}&all=1`, { token: (await loginAs(admin)).token });
    expect(byAdmin.json.data.photos).toHaveLength(2);
    const pub = await server.request(`/api/v1/photos?guideId=${guide.id}&all=0`);
    expect(pub.json.data.photos.map((p: { status: string }) => p.status)).toEqual(['approved']);
    expectApi(await server.request(`/api/v1/photos?guideId=abc`), 400, 'VALIDATION_ERROR');
  });

  it('an admin reviews: approve shows it publicly, reject with a reason notifies and mails the guide; both audited', async () => {
    const guide = await createGuide({ locale: 'en' });
    const admin = await createUser({ type: 'admin' });
    const a = await createPhoto(guide.id, { status: 'pending_review' });
    const b = await createPhoto(guide.id, { status: 'pending_review' });
    const { token } = await loginAs(admin);
    const ok = await server.request(`/api/v1/photos/${a.id}`, { method: 'PATCH', token, json: { status: 'approved' } });
    expectApi(ok, 200);
    await expectContract(server, 'PATCH', '/api/v1/photos/{id}', ok);
    const mailed = await mailCausedBy(mail.sink, guide.email, () =>
      server.request(`/api/v1/photos/${b.id}`, { method: 'PATCH', token, json: { status: 'rejected', reason: 'Blurry picture' } }),
    );
    expect(mailed.subject).toContain('Your photo was not approved');
    expect(mailed.text).toContain('Blurry picture');
    const notes = await getDb().select().from(notifications).where(eq(notifications.userId, guide.id));
    expect(notes.map((x) => x.title).sort()).toEqual(['Your photo is approved', 'Your photo was not approved']);
    const audits = await getDb().select().from(auditLogs).where(eq(auditLogs.actorId, admin.id));
    expect(audits.map((x) => x.action).sort()).toEqual(['photo.approve', 'photo.reject']);
    const pub = await server.request(`/api/v1/photos?guideId=${guide.id}`);
    expect(pub.json.data.photos.map((p: { id: number }) => p.id)).toEqual([a.id]);
    const page = await server.request(`/guides/${guide.id}`);
    expect(page.text).toContain(pub.json.data.photos[0].url);
    expect(page.text).not.toContain(blobUrl(b.blobKey)!);
  });

  it('stores the rejection reason: the API returns it to the guide and admins, /me shows it on the card; approving clears it', async () => {
    const guide = await createGuide({ locale: 'en' });
    const admin = await createUser({ type: 'admin' });
    const photo = await createPhoto(guide.id, { status: 'pending_review' });
    const kept = await createPhoto(guide.id, { status: 'pending_review' });
    const { token } = await loginAs(admin);
    const rejected = await server.request(`/api/v1/photos/${photo.id}`, { method: 'PATCH', token, json: { status: 'rejected', reason: '  Too dark  ' } });
    expectApi(rejected, 200);
    expect(rejected.json.data.photo).toMatchObject({ id: photo.id, status: 'rejected', rejectionReason: 'Too dark' });
    await expectContract(server, 'PATCH', '/api/v1/photos/{id}', rejected);
    const [row] = await getDb().select().from(photos).where(eq(photos.id, photo.id));
    expect(row!.rejectionReason).toBe('Too dark');

    const own = await loginAs(guide);
    const mine = await server.request(`/api/v1/photos?guideId=${guide.id}&all=1`, { token: own.token });
    expectApi(mine, 200);
    await expectContract(server, 'GET', '/api/v1/photos', mine);
    const byId = Object.fromEntries(mine.json.data.photos.map((p: { id: number; rejectionReason: string | null }) => [p.id, p.rejectionReason]));
    expect(byId).toEqual({ [photo.id]: 'Too dark', [kept.id]: null });
    const me = await server.request('/me', { cookie: own.cookie });
    expect(me.status).toBe(200);
    expect(me.text).toMatch(new RegExp(`data-testid="photo-reason-${photo.id}">[^<]*Too dark`));
    expect(me.text).not.toContain(`photo-reason-${kept.id}`);

    // The admin queue's web form stores the reason too; an approval later leaves none behind.
    const adminCookie = (await loginAs(admin)).cookie;
    const web = await server.request('/admin/photo-review', { method: 'POST', cookie: adminCookie, body: new URLSearchParams({ intent: 'reject', id: String(kept.id), reason: '有浮水印' }) });
    expect(web.status).toBe(302);
    const [webRow] = await getDb().select().from(photos).where(eq(photos.id, kept.id));
    expect(webRow).toMatchObject({ status: 'rejected', rejectionReason: '有浮水印' });
    expectApi(await server.request(`/api/v1/photos/${kept.id}`, { method: 'PATCH', token, json: { status: 'approved' } }), 200);
    const [approved] = await getDb().select().from(photos).where(eq(photos.id, kept.id));
    expect(approved).toMatchObject({ status: 'approved', rejectionReason: null });
  });

  it('the review queue re-renders a refused rejection with the typed reason and the translated error, for that photo only', async () => {
    const admin = await createUser({ type: 'admin' });
    const guide = await createGuide();
    const photo = await createPhoto(guide.id, { status: 'pending_review' });
    const { cookie } = await loginAs(admin);
    const tooLong = 'x'.repeat(501);
    const res = await server.request('/admin/photo-review', { method: 'POST', cookie, body: new URLSearchParams({ intent: 'reject', id: String(photo.id), reason: tooLong }) });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain(`value="${tooLong}"`);
    const error = /<p class="field-error" id="(decision-(\d+)[^"]*)"[^>]*>([^<]+)</.exec(res.text);
    expect(error?.[2]).toBe(String(photo.id));
    expect(error?.[3]).not.toContain('validation.');
    expect(res.text).toContain(`aria-describedby="${error?.[1]}"`);
    const [row] = await getDb().select().from(photos).where(eq(photos.id, photo.id));
    expect(row!.status).toBe('pending_review');
  });
});

describe('identity verification', () => {
  async function apply(token: string, type = 'national_id') {
    return server.request('/api/v1/id-verification', {
      method: 'POST',
      token,
      body: form({ front: { bytes: await picture('jpeg', 800, 500, { exif: true }), type: 'image/jpeg', name: 'f.jpg' }, back: { bytes: await picture('png', 800, 500) } }, { type }),
    });
  }

  it('keeps documents private: the applicant and admins only, never cached, never under /uploads/', async () => {
    const guide = await createGuide({ isIdVerified: false, idVerificationType: null, idVerifiedAt: null });
    const other = await createGuide();
    const admin = await createUser({ type: 'admin' });
    const { token, cookie } = await loginAs(guide);
    const res = await apply(token);
    expectApi(res, 201);
    await expectContract(server, 'POST', '/api/v1/id-verification', res);
    const url: string = res.json.data.documents.front;
    expect(url).toMatch(/^\/id-verification\/documents\/\d+\/front$/);

    for (const viewer of [{}, { token: (await loginAs(other)).token }, { cookie: (await loginAs(other)).cookie }]) {
      const r = await server.request(url, viewer);
      expect(r.status).toBe(404);
      expect(r.headers.get('cache-control')).toBe('private, no-store');
    }
    for (const viewer of [{ token }, { cookie }, { token: (await loginAs(admin)).token }]) {
      const r = await server.request(url, viewer);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/webp');
      expect(r.headers.get('cache-control')).toBe('private, no-store');
    }
    const [row] = await getDb().select().from(idVerifications).where(eq(idVerifications.userId, guide.id));
    for (const key of row!.documentKeys) {
      const [blob] = await getDb().select().from(blobs).where(eq(blobs.key, key));
      expect(blob!.private).toBe(true);
      expect((await sharp(blob!.bytes).metadata()).exif).toBeUndefined();
      const viaUploads = await server.request(`/uploads/${key}.webp`);
      expect(viaUploads.status).toBe(404);
    }
    const mine = await server.request('/api/v1/id-verification', { token });
    expectApi(mine, 200);
    expect(mine.json.data).toMatchObject({ state: 'pending', isIdVerified: false });
    await expectContract(server, 'GET', '/api/v1/id-verification', mine);
  });

  it('apply → reject with notes → apply again → approve, with notifications and mails in the applicant’s language', async () => {
    const guide = await createGuide({ isIdVerified: false, idVerificationType: null, idVerifiedAt: null, locale: 'ja' });
    const admin = await createUser({ type: 'admin' });
    const { token } = await loginAs(guide);
    const { token: adminToken } = await loginAs(admin);
    const first = await apply(token);
    expectApi(first, 201);
    // A second application while one is pending is refused, nothing stored.
    expectApi(await apply(token), 409, 'ALREADY_VERIFIED');
    expect(await n(idVerifications, eq(idVerifications.userId, guide.id))).toBe(1);

    const queue = await server.request('/api/v1/id-verifications?status=pending', { token: adminToken });
    expectApi(queue, 200);
    await expectContract(server, 'GET', '/api/v1/id-verifications', queue);
    expect(queue.json.data.applications.map((a: { id: number }) => a.id)).toContain(first.json.data.id);

    expectApi(await server.request(`/api/v1/id-verifications/${first.json.data.id}/reject`, { method: 'POST', token: adminToken, json: { reviewNotes: '  ' } }), 400, 'VALIDATION_ERROR');
    const rejectedMail = await mailCausedBy(mail.sink, guide.email, async () => {
      const r = await server.request(`/api/v1/id-verifications/${first.json.data.id}/reject`, { method: 'POST', token: adminToken, json: { reviewNotes: '写真がぼやけています' } });
      expectApi(r, 200);
      await expectContract(server, 'POST', '/api/v1/id-verifications/{id}/reject', r);
    });
    expect(rejectedMail.subject).toContain('本人確認が承認されませんでした');
    expect(rejectedMail.text).toContain('写真がぼやけています');
    const state = await server.request('/api/v1/id-verification', { token });
    expect(state.json.data).toMatchObject({ state: 'rejected', reviewNotes: '写真がぼやけています' });
    // The page shows the notes and the verify-again form.
    const page = await server.request('/id-verification', { cookie: (await loginAs(guide)).cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('写真がぼやけています');

    const second = await apply(token, 'passport');
    expectApi(second, 201);
    const approvedMail = await mailCausedBy(mail.sink, guide.email, async () => {
      const r = await server.request(`/api/v1/id-verifications/${second.json.data.id}/approve`, { method: 'POST', token: adminToken });
      expectApi(r, 200);
      await expectContract(server, 'POST', '/api/v1/id-verifications/{id}/approve', r);
    });
    expect(approvedMail.subject).toContain('本人確認が承認されました');
    const [updated] = await getDb().select().from(users).where(eq(users.id, guide.id));
    expect(updated).toMatchObject({ isIdVerified: true, idVerificationType: 'passport' });
    expect(updated!.idVerifiedAt).toBeInstanceOf(Date);
    // Deciding twice is refused.
    expectApi(await server.request(`/api/v1/id-verifications/${second.json.data.id}/approve`, { method: 'POST', token: adminToken }), 400);
    const notes = await getDb().select().from(notifications).where(eq(notifications.userId, guide.id));
    expect(notes.map((x) => x.title)).toEqual(['本人確認が承認されませんでした', '本人確認が承認されました']);
    const audits = await getDb().select({ action: auditLogs.action }).from(auditLogs).where(and(eq(auditLogs.targetType, 'user'), eq(auditLogs.targetId, String(guide.id))));
    expect(audits.map((a) => a.action)).toEqual(['id_verification.reject', 'id_verification.approve']);
    // Verified now: a new application is refused, and the guide may upload photos.
    expectApi(await apply(token), 409, 'ALREADY_VERIFIED');
    expectApi(await uploadAs(token, await picture('png')), 201);
  });

  it('refuses bad applications with nothing stored: wrong type, missing back, a text file', async () => {
    const guide = await createGuide({ isIdVerified: false });
    const { token } = await loginAs(guide);
    const before = { apps: await n(idVerifications), blobs: await n(blobs) };
    const png = await picture('png');
    const send = (files: Parameters<typeof form>[0], fields: Record<string, string>) =>
      server.request('/api/v1/id-verification', { method: 'POST', token, body: form(files, fields) });
    expectApi(await send({ front: { bytes: png }, back: { bytes: png } }, { type: 'library_card' }), 400, 'VALIDATION_ERROR');
    expectApi(await send({ front: { bytes: png } }, { type: 'passport' }), 400, 'VALIDATION_ERROR');
    expectApi(await send({ front: { bytes: png }, back: { bytes: Buffer.from('hello') } }, { type: 'passport' }), 415, 'INVALID_FILE_TYPE');
    expectApi(await server.request('/api/v1/id-verification', { method: 'POST', body: form({ front: { bytes: png }, back: { bytes: png } }, { type: 'passport' }) }), 401, 'UNAUTHORIZED');
    expect(await n(idVerifications)).toBe(before.apps);
    expect(await n(blobs)).toBe(before.blobs);
  });
});

describe('guide standing', () => {
  /** Whether the public search (GET /api/v1/guides) lists this guide. */
  const isListed = async (id: number) => {
    const r = await server.request('/api/v1/guides?limit=100');
    expectApi(r, 200);
    return (r.json.data.guides as Array<{ id: number }>).some((g) => g.id === id);
  };

  it('suspend takes a guide out of the list and the guide page; reinstate (as "approved") brings them back; audited and told', async () => {
    const guide = await createGuide({ name: 'Standing Test Guide', guideStatus: null });
    const admin = await createUser({ type: 'admin' });
    const { token } = await loginAs(admin);
    const listed = () => isListed(guide.id);
    expect(await listed()).toBe(true); // a new guide is listed without an approval step
    const mailed = await mailCausedBy(mail.sink, guide.email, async () => {
      const r = await server.request(`/api/v1/guides/${guide.id}/status`, { method: 'PUT', token, json: { status: 'suspended', reason: '多次爽約' } });
      expectApi(r, 200);
      await expectContract(server, 'PUT', '/api/v1/guides/{id}/status', r);
      expect(r.json.data).toEqual({ id: guide.id, status: 'suspended', reason: '多次爽約' });
    });
    expect(mailed.text).toContain('多次爽約');
    expect(await listed()).toBe(false);
    expect((await server.request(`/guides/${guide.id}`)).status).toBe(404);
    const back = await server.request(`/api/v1/guides/${guide.id}/status`, { method: 'PUT', token, json: { status: 'approved' } });
    expect(back.json.data.status).toBe('active');
    expect(await listed()).toBe(true);
    const audits = await getDb().select({ action: auditLogs.action }).from(auditLogs).where(eq(auditLogs.targetId, String(guide.id)));
    expect(audits.map((a) => a.action)).toEqual(['guide.suspend', 'guide.reinstate']);
    expect(await n(notifications as never, eq(notifications.userId, guide.id) as never)).toBe(2);
    expectApi(await server.request(`/api/v1/guides/${guide.id}/status`, { method: 'PUT', token, json: { status: 'gone' } }), 400, 'VALIDATION_ERROR');
    const traveler = await createTraveler();
    expectApi(await server.request(`/api/v1/guides/${traveler.id}/status`, { method: 'PUT', token, json: { status: 'suspended' } }), 404, 'GUIDE_NOT_FOUND');
  });

  it('an incomplete profile is not listed; DELETE archives the guide', async () => {
    const incomplete = await createGuide({ description: '' });
    expect(await isListed(incomplete.id)).toBe(false);
    const guide = await createGuide();
    const admin = await createUser({ type: 'admin' });
    const r = await server.request(`/api/v1/guides/${guide.id}`, { method: 'DELETE', token: (await loginAs(admin)).token });
    expectApi(r, 200);
    await expectContract(server, 'DELETE', '/api/v1/guides/{id}', r);
    expect(r.json.data.user.archivedAt).not.toBeNull();
    expect(await isListed(guide.id)).toBe(false);
  });
});

describe('admin routes', () => {
  it('are refused to travelers and guides (403) and to the anonymous (401 / login)', async () => {
    const guide = await createGuide();
    const traveler = await createTraveler();
    const photo = await createPhoto(guide.id, { status: 'pending_review' });
    const before = await n(photos, eq(photos.status, 'pending_review'));
    const api: Array<[string, string, unknown?]> = [
      ['GET', '/api/v1/id-verifications'],
      ['POST', '/api/v1/id-verifications/1/approve'],
      ['POST', '/api/v1/id-verifications/1/reject', { reviewNotes: 'x' }],
      ['PATCH', `/api/v1/photos/${photo.id}`, { status: 'approved' }],
      ['PUT', `/api/v1/guides/${guide.id}/status`, { status: 'suspended' }],
      ['DELETE', `/api/v1/guides/${guide.id}`],
    ];
    const pages = ['/admin/id-verification', '/admin/photo-review', '/admin/photos', '/admin/guides', `/admin/guides/${guide.id}`];
    for (const user of [guide, traveler]) {
      const { token, cookie } = await loginAs(user);
      for (const [method, path, json] of api) expectApi(await server.request(path, { method, token, json }), 403, 'FORBIDDEN');
      for (const path of pages) expect((await server.request(path, { cookie })).status, path).toBe(403);
      for (const path of pages.filter((p) => p !== '/admin/photos' && p !== '/admin/guides')) {
        const body = new URLSearchParams({ intent: 'approve', id: String(photo.id), status: 'suspended' });
        expect((await server.request(path, { method: 'POST', cookie, body })).status, `POST ${path}`).toBe(403);
      }
    }
    for (const [method, path, json] of api) expectApi(await server.request(path, { method, json }), 401, 'UNAUTHORIZED');
    for (const path of pages) {
      const r = await server.request(path);
      expect(r.status).toBe(302);
      expect(r.headers.get('location')).toMatch(/^\/login\?redirectTo=/);
    }
    expect(await n(photos, eq(photos.status, 'pending_review'))).toBe(before);
    const [g] = await getDb().select().from(users).where(eq(users.id, guide.id));
    expect(g).toMatchObject({ guideStatus: 'active', deletedAt: null });
  });
});

describe('web forms without JS', () => {
  it('/id-verification: a refused application re-renders with the chosen type and the message; a good one redirects', async () => {
    const guide = await createGuide({ isIdVerified: false, idVerificationType: null, idVerifiedAt: null });
    const { cookie } = await loginAs(guide);
    const png = await picture('png');
    const bad = await server.request('/id-verification', { method: 'POST', cookie, body: form({ front: { bytes: png } }, { type: 'passport' }) });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('請上傳證件背面');
    expect(bad.text).toMatch(/<option value="passport" selected="">/);
    expect(await n(idVerifications, eq(idVerifications.userId, guide.id))).toBe(0);
    const good = await server.request('/id-verification', { method: 'POST', cookie, body: form({ front: { bytes: png }, back: { bytes: png } }, { type: 'passport' }) });
    expect(good.status).toBe(302);
    expect(good.headers.get('location')).toBe('/id-verification');
    const page = await server.request('/id-verification', { cookie });
    expect(page.text).toContain('data-testid="idv-state">審核中');
  });

  it('/me/photos: upload and delete with plain forms; an unverified guide is refused with nothing stored', async () => {
    const guide = await createGuide();
    const { cookie } = await loginAs(guide);
    const up = await server.request('/me/photos', { method: 'POST', cookie, body: form({ photo: { bytes: await picture('png') } }, { intent: 'upload' }) });
    expect(up.status).toBe(302);
    expect(up.headers.get('location')).toBe('/me');
    const [row] = await getDb().select().from(photos).where(eq(photos.guideId, guide.id));
    expect(row!.status).toBe('pending_review');
    const me = await server.request('/me', { cookie });
    expect(me.text).toContain(`data-testid="gallery-photo-${row!.id}"`);
    const del = await server.request('/me/photos', { method: 'POST', cookie, body: new URLSearchParams({ intent: 'delete', ids: String(row!.id) }) });
    expect(del.status).toBe(302);
    expect(await n(photos, eq(photos.guideId, guide.id))).toBe(0);

    const unverified = await createGuide({ isIdVerified: false });
    const other = await loginAs(unverified);
    const before = await n(blobs);
    const refused = await server.request('/me/photos', { method: 'POST', cookie: other.cookie, body: form({ photo: { bytes: await picture('png', 300, 200) } }, { intent: 'upload' }) });
    expect(refused.status).toBe(302);
    expect(await n(photos, eq(photos.guideId, unverified.id))).toBe(0);
    expect(await n(blobs)).toBe(before);
    const locked = await server.request('/me', { cookie: other.cookie });
    expect(locked.text).toContain('data-testid="photos-locked"');
    expect(locked.text).toContain('href="/id-verification"');
  });

  it('admin queues: reject needs notes (re-rendered), approve and batch approve redirect; standing form suspends', async () => {
    const admin = await createUser({ type: 'admin' });
    const { cookie } = await loginAs(admin);
    const applicant = await createGuide({ isIdVerified: false });
    const app = await server.request('/api/v1/id-verification', {
      method: 'POST',
      token: (await loginAs(applicant)).token,
      body: form({ front: { bytes: await picture('png') }, back: { bytes: await picture('png') } }, { type: 'national_id' }),
    });
    const id = String(app.json.data.id);
    const queue = await server.request('/admin/id-verification', { cookie });
    expect(queue.status).toBe(200);
    expect(queue.text).toContain(`/id-verification/documents/${id}/front`);
    const noNotes = await server.request('/admin/id-verification', { method: 'POST', cookie, body: new URLSearchParams({ intent: 'reject', id, reviewNotes: ' ' }) });
    expect(noNotes.status).toBe(400);
    expect(noNotes.text, noNotes.text.match(/form-error[^<]*<[^<]*/)?.[0] ?? noNotes.text.slice(-3000)).toContain('請填寫退回原因');
    const longNotes = '證件模糊'.repeat(251);
    const tooLong = await server.request('/admin/id-verification', { method: 'POST', cookie, body: new URLSearchParams({ intent: 'reject', id, reviewNotes: longNotes }) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain(`>${longNotes}</textarea>`);
    const ok = await server.request('/admin/id-verification', { method: 'POST', cookie, body: new URLSearchParams({ intent: 'approve', id }) });
    expect(ok.status).toBe(302);
    const [u] = await getDb().select().from(users).where(eq(users.id, applicant.id));
    expect(u!.isIdVerified).toBe(true);

    const guide = await createGuide();
    const p1 = await createPhoto(guide.id, { status: 'pending_review' });
    const p2 = await createPhoto(guide.id, { status: 'pending_review' });
    const review = await server.request('/admin/photo-review', { cookie });
    expect(review.text).toContain(`data-testid="review-photo-${p1.id}"`);
    const batch = new URLSearchParams({ intent: 'approve-selected' });
    batch.append('ids', String(p1.id));
    batch.append('ids', String(p2.id));
    expect((await server.request('/admin/photo-review', { method: 'POST', cookie, body: batch })).status).toBe(302);
    expect(await n(photos, and(eq(photos.guideId, guide.id), eq(photos.status, 'approved')) as never)).toBe(2);
    expect((await server.request(`/admin/photos?status=approved&guideId=${guide.id}`, { cookie })).text).toContain(blobUrl(p1.blobKey)!);

    const list = await server.request('/admin/guides', { cookie });
    expect(list.text).toContain(`data-testid="admin-guide-${guide.id}"`);
    const suspend = await server.request(`/admin/guides/${guide.id}`, { method: 'POST', cookie, body: new URLSearchParams({ status: 'suspended', reason: '測試' }) });
    expect(suspend.status).toBe(302);
    const [g] = await getDb().select().from(users).where(eq(users.id, guide.id));
    expect(g!.guideStatus).toBe('suspended');
  });
});
