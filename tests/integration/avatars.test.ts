import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, blobs, users } from '~db/schema';
import { takeToast } from '~/http/toast.server';
import { removeAvatar, setAvatar } from '~/services/accounts/avatars.server';
import { AppError } from '~/services/platform/errors.server';
import type { UserRow } from '~/services/accounts/users.server';
import { loginAs } from '../support/api';
import { createAvatar, createGuide, createTraveler, createUser } from '~server/seed/factories';
import { useTestServer, type TestResponse } from '../support/http-server';
import { testDriver, useTestDatabase } from '../support/test-database';
import { blobUrl } from '~/services/platform/blobs.server';

/**
 * Avatars: the service (bytes checked, re-encoded, access), the API and the /me/avatar form, the last two
 * over real HTTP through the Express app with the Remix handler.
 */
useTestDatabase();
const server = useTestServer();

/** A photo-like picture (a gradient, so the crop is visible), in the given format and size. */
async function picture(format: 'png' | 'jpeg' | 'webp', width = 320, height = 200, options: { exif?: boolean } = {}) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/></linearGradient></defs>
    <rect width="${width}" height="${height}" fill="url(#g)"/></svg>`;
  let image = sharp(Buffer.from(svg));
  if (options.exif) image = image.withExif({ IFD0: { Copyright: 'secret camera owner', Make: 'TestCam' } });
  return image.toFormat(format).toBuffer();
}

function fileForm(bytes: Buffer, filename: string, type: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('avatar', new File([new Uint8Array(bytes)], filename, { type }));
  return form;
}

async function blobCount() {
  const [row] = await getDb().select({ n: count() }).from(blobs);
  return Number(row!.n);
}

async function avatarKeyOf(id: number) {
  const [row] = await getDb().select({ key: users.avatarKey }).from(users).where(eq(users.id, id));
  return row!.key;
}

async function storedBytes(key: string) {
  const [row] = await getDb().select().from(blobs).where(eq(blobs.key, key));
  return row!;
}

/** The toast a redirect leaves, read back the way the root loader reads it (signature checked). */
async function toastOf(headers: Headers) {
  const cookie = headers.getSetCookie().find((c) => c.startsWith('toast='))?.split(';')[0] ?? '';
  const { toast } = await takeToast(new Request('http://localhost/me', { headers: { cookie } }));
  return toast;
}

/** An API answer as a client reads it: this status, a JSON body, and never stored by a cache. */
function expectApi(res: TestResponse, status: number, label = '') {
  expect(res.status, `${label} ${res.text.slice(0, 300)}`).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.json?.success).toBe(status < 400);
}

/**
 * The value in a Remix single-fetch answer (`/route.data`, turbo-stream encoded): a flat JSON array where
 * objects name their keys and values by index (`{"_1":2}`) and negative numbers are null/undefined. Enough
 * for the plain objects our actions return; anything else (promises, dates, redirects) is refused.
 */
function singleFetchValue(text: string): any {
  const values = JSON.parse(text.split('\n')[0]!) as unknown[];
  const hydrate = (index: number): unknown => {
    if (index === -5) return null;
    if (index === -7) return undefined;
    if (index < 0) throw new Error(`singleFetchValue: special value ${index}`);
    const value = values[index];
    if (Array.isArray(value)) {
      if (typeof value[0] === 'string') throw new Error(`singleFetchValue: typed value ${value[0]}`);
      return value.map((i) => hydrate(i as number));
    }
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([key, i]) => [values[Number(key.slice(1))] as string, hydrate(i as number)]),
      );
    }
    return value;
  };
  return hydrate(0);
}

async function expectAppError(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
}

describe(`avatars service (${testDriver})`, () => {
  let traveler: UserRow;
  let other: UserRow;
  let admin: UserRow;

  beforeAll(async () => {
    traveler = await createTraveler();
    other = await createGuide();
    admin = await createUser({ type: 'admin' });
  });

  for (const format of ['png', 'jpeg', 'webp'] as const) {
    it(`re-encodes a ${format} into a 100×100 webp without metadata`, async () => {
      const input = await picture(format, 640, 360, { exif: true });
      expect((await sharp(input).metadata()).exif).toBeDefined(); // so "no exif" below means something
      const url = await setAvatar(traveler, traveler.id, input);
      const key = await avatarKeyOf(traveler.id);
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      expect(url).toBe(blobUrl(key));
      const blob = await storedBytes(key!);
      expect(blob.contentType).toBe('image/webp');
      expect(blob.private).toBe(false);
      const meta = await sharp(blob.bytes).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe(100);
      expect(meta.height).toBe(100);
      expect(meta.exif).toBeUndefined();
    });
  }

  it('applies the EXIF orientation before cropping (a portrait photo stored sideways stays upright)', async () => {
    // 200 wide × 100 high, top half red and bottom half blue, tagged "rotate 90° clockwise" (orientation 6):
    // shown upright it is 100 wide × 200 high with red on the right.
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">
      <rect width="200" height="50" fill="#f00"/><rect y="50" width="200" height="50" fill="#00f"/></svg>`;
    const bytes = await sharp(Buffer.from(svg)).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    await setAvatar(traveler, traveler.id, bytes);
    const blob = await storedBytes((await avatarKeyOf(traveler.id))!);
    const { data } = await sharp(blob.bytes).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * 100 + x) * 3, (y * 100 + x) * 3 + 3)];
    const [lr, , lb] = pixel(10, 50);
    const [rr, , rb] = pixel(90, 50);
    expect(lb).toBeGreaterThan(lr!); // left is blue
    expect(rr).toBeGreaterThan(rb!); // right is red
  });

  it('checks the bytes, not the name: text, a corrupt header and a truncated image are 415', async () => {
    const before = await blobCount();
    const key = await avatarKeyOf(traveler.id);
    await expectAppError(setAvatar(traveler, traveler.id, Buffer.from('hello, I am not a picture\n')), 'INVALID_FILE_TYPE');
    const png = await picture('png');
    const corruptHeader = Buffer.concat([png.subarray(0, 8), Buffer.alloc(64, 0x41)]);
    await expectAppError(setAvatar(traveler, traveler.id, corruptHeader), 'INVALID_FILE_TYPE');
    const jpeg = await picture('jpeg', 800, 600);
    await expectAppError(setAvatar(traveler, traveler.id, jpeg.subarray(0, Math.floor(jpeg.length / 2))), 'INVALID_FILE_TYPE');
    // An SVG or a GIF is a picture, but not one of the accepted types.
    await expectAppError(setAvatar(traveler, traveler.id, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), 'INVALID_FILE_TYPE');
    await expectAppError(setAvatar(traveler, traveler.id, await sharp(png).gif().toBuffer()), 'INVALID_FILE_TYPE');
    expect(await blobCount()).toBe(before);
    expect(await avatarKeyOf(traveler.id)).toBe(key);
  });

  it('refuses more than 10 MiB (413) and more than 25 megapixels before decoding (413)', async () => {
    const before = await blobCount();
    const key = await avatarKeyOf(traveler.id);
    const png = await picture('png');
    const big = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 + 1 - png.length)]);
    await expectAppError(setAvatar(traveler, traveler.id, big), 'FILE_TOO_LARGE');
    const huge = await sharp({ create: { width: 6000, height: 5000, channels: 3, background: '#3366cc' } }).png().toBuffer();
    expect(huge.length).toBeLessThan(10 * 1024 * 1024);
    const error = await setAvatar(traveler, traveler.id, huge).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(413);
    expect((error as AppError).messageKey).toBe('avatar.errors.tooManyPixels');
    expect(await blobCount()).toBe(before);
    expect(await avatarKeyOf(traveler.id)).toBe(key);
  });

  it('lets people change only their own avatar; admins anyone; unknown users are 404', async () => {
    const png = await picture('png');
    await expectAppError(setAvatar(traveler, other.id, png), 'FORBIDDEN');
    await expectAppError(removeAvatar(traveler, other.id), 'FORBIDDEN');
    expect(await avatarKeyOf(other.id)).toBeNull();
    expect(await setAvatar(admin, other.id, png)).toMatch(/^\/uploads\/[\w-]{43}\.webp$/);
    expect(await avatarKeyOf(other.id)).not.toBeNull();
    await expectAppError(setAvatar(admin, 99_999_999, png), 'USER_NOT_FOUND');
    const logs = await getDb().select().from(auditLogs).where(eq(auditLogs.actorId, admin.id));
    expect(logs.map((l) => [l.action, l.targetId])).toContainEqual(['user.avatar.set', String(other.id)]);
  });

  it('archived accounts are read-only for everyone, as on the profile: their avatar is 404 even for an admin', async () => {
    const png = await picture('png');
    const archived = await createTraveler({ deletedAt: new Date() });
    await expectAppError(setAvatar(archived, archived.id, png), 'USER_NOT_FOUND');
    await expectAppError(setAvatar(admin, archived.id, png), 'USER_NOT_FOUND');
    await expectAppError(removeAvatar(admin, archived.id), 'USER_NOT_FOUND');
    expect(await avatarKeyOf(archived.id)).toBeNull();
  });

  it('removal clears the key but keeps the shared blob', async () => {
    const shared = await createAvatar(120);
    const a = await createTraveler({ avatarKey: shared });
    const b = await createTraveler({ avatarKey: shared });
    expect(await removeAvatar(a, a.id)).toBeNull();
    expect(await avatarKeyOf(a.id)).toBeNull();
    expect(await avatarKeyOf(b.id)).toBe(shared);
    expect((await storedBytes(shared)).key).toBe(shared);
  });
});

describe(`POST/DELETE /api/v1/users/:id/avatar (${testDriver})`, () => {
  let traveler: UserRow;
  let other: UserRow;
  let admin: UserRow;
  let travelerToken: string;
  let adminToken: string;

  beforeAll(async () => {
    traveler = await createTraveler();
    other = await createTraveler();
    admin = await createUser({ type: 'admin' });
    travelerToken = (await loginAs(traveler)).token;
    adminToken = (await loginAs(admin)).token;
  });

  const post = (id: number | string, body: FormData, token?: string, headers?: Record<string, string>) =>
    server.request(`/api/v1/users/${id}/avatar`, { method: 'POST', body, token, headers });
  const del = (id: number | string, token?: string) => server.request(`/api/v1/users/${id}/avatar`, { method: 'DELETE', token });

  for (const [format, type] of [
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['webp', 'image/webp'],
  ] as const) {
    it(`stores a ${format} as a 100×100 webp and answers its URL`, async () => {
      const res = await post(traveler.id, fileForm(await picture(format, 500, 900), `me.${format}`, type), travelerToken);
      expectApi(res, 200);
      expect(res.json.success).toBe(true);
      const key = await avatarKeyOf(traveler.id);
      expect(res.json.data).toEqual({ avatarUrl: blobUrl(key), avatar: blobUrl(key) });
      const meta = await sharp((await storedBytes(key!)).bytes).metadata();
      expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['webp', 100, 100, undefined]);
    });
  }

  it('answers 415 for a text file named .png and for a corrupt PNG, storing nothing', async () => {
    const before = await blobCount();
    const key = await avatarKeyOf(traveler.id);
    const text = await post(traveler.id, fileForm(Buffer.from('just some text'), 'photo.png', 'image/png'), travelerToken);
    expectApi(text, 415);
    expect(text.json).toMatchObject({ success: false, code: 'INVALID_FILE_TYPE' });
    expect(text.json.message).toBe('檔案格式不支援，請使用 JPEG、PNG 或 WebP 圖片');
    const png = await picture('png');
    const corrupt = Buffer.concat([png.subarray(0, 16), Buffer.alloc(40, 0xff)]);
    const res = await post(traveler.id, fileForm(corrupt, 'photo.png', 'image/png'), travelerToken, { 'accept-language': 'en' });
    expectApi(res, 415);
    expect(res.json.code).toBe('INVALID_FILE_TYPE');
    expect(res.json.message).toMatch(/JPEG/);
    expect(await blobCount()).toBe(before);
    expect(await avatarKeyOf(traveler.id)).toBe(key);
  });

  it('answers 413 for more than 10 MiB and for a 30-megapixel image, storing nothing', async () => {
    const before = await blobCount();
    const key = await avatarKeyOf(traveler.id);
    const png = await picture('png');
    const big = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 + 10 - png.length)]);
    const tooBig = await post(traveler.id, fileForm(big, 'big.png', 'image/png'), travelerToken);
    expectApi(tooBig, 413);
    expect(tooBig.json.code).toBe('FILE_TOO_LARGE');
    const huge = await sharp({ create: { width: 6000, height: 5000, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const res = await post(traveler.id, fileForm(huge, 'huge.png', 'image/png'), travelerToken, { 'accept-language': 'en' });
    expectApi(res, 413);
    expect(res.json.code).toBe('FILE_TOO_LARGE');
    expect(res.json.message).toMatch(/25 megapixels/);
    expect(await blobCount()).toBe(before);
    expect(await avatarKeyOf(traveler.id)).toBe(key);
  });

  it('answers 400 without a file', async () => {
    const form = new FormData();
    form.append('note', 'no file here');
    const res = await post(traveler.id, form, travelerToken);
    expectApi(res, 400);
    expect(res.json.code).toBe('VALIDATION_ERROR');
  });

  it('is 401 anonymous, 403 for someone else, allowed for an admin', async () => {
    const png = await picture('png');
    const anon = await post(other.id, fileForm(png, 'a.png', 'image/png'));
    expectApi(anon, 401);
    expect(anon.json.code).toBe('UNAUTHORIZED');
    expectApi(await del(other.id), 401);
    const forbidden = await post(other.id, fileForm(png, 'a.png', 'image/png'), travelerToken);
    expectApi(forbidden, 403);
    expect(forbidden.json.code).toBe('FORBIDDEN');
    expect(await avatarKeyOf(other.id)).toBeNull();
    const byAdmin = await post(other.id, fileForm(png, 'a.png', 'image/png'), adminToken);
    expectApi(byAdmin, 200);
    expect(await avatarKeyOf(other.id)).not.toBeNull();
    expectApi(await del(other.id, travelerToken), 403);
    expect(await avatarKeyOf(other.id)).not.toBeNull();
    const missing = await post(99_999_999, fileForm(png, 'a.png', 'image/png'), adminToken);
    expectApi(missing, 404);
    expect(missing.json.code).toBe('USER_NOT_FOUND');
  });

  it('DELETE clears avatar_key', async () => {
    expect(await avatarKeyOf(traveler.id)).not.toBeNull();
    const res = await del(traveler.id, travelerToken);
    expectApi(res, 200);
    expect(res.json).toEqual({ success: true, data: { avatarUrl: null } });
    expect(await avatarKeyOf(traveler.id)).toBeNull();
    const byAdmin = await del(other.id, adminToken);
    expectApi(byAdmin, 200);
    expect(await avatarKeyOf(other.id)).toBeNull();
  });

  it('answers 404 for an id that is not a number', async () => {
    const res = await del('abc', adminToken);
    expectApi(res, 404);
    expect(res.json.code).toBe('USER_NOT_FOUND');
    expectApi(await post('abc', fileForm(await picture('png'), 'a.png', 'image/png'), adminToken), 404);
  });

  it('answers 405 with Allow to GET and PUT, and refuses an upload over the limit before reading it', async () => {
    for (const method of ['GET', 'PUT']) {
      const res = await server.request(`/api/v1/users/${traveler.id}/avatar`, { method, token: travelerToken });
      expectApi(res, 405, method);
      expect(res.json.code).toBe('METHOD_NOT_ALLOWED');
      expect(res.headers.get('allow')).toBe('POST, DELETE');
    }
    // Content-Length over 10 MiB plus the multipart allowance: 413 from the server before the route runs.
    const before = await blobCount();
    const huge = fileForm(Buffer.alloc(10 * 1024 * 1024 + 128 * 1024, 0xff), 'huge.png', 'image/png');
    const res = await post(traveler.id, huge, travelerToken, { 'accept-language': 'en' });
    expectApi(res, 413);
    expect(res.json.code).toBe('FILE_TOO_LARGE');
    expect(await blobCount()).toBe(before);
  });
});

describe(`/me/avatar form route (${testDriver})`, () => {
  let user: UserRow;
  let cookie: string;

  beforeAll(async () => {
    user = await createGuide();
    cookie = (await loginAs(user)).cookie;
  });

  /** The form posted by a browser (JS off): a document request to /me/avatar. */
  const submit = (body: FormData | URLSearchParams, headers?: Record<string, string>, withCookie = true) =>
    server.request('/me/avatar', { method: 'POST', body, cookie: withCookie ? cookie : undefined, headers });
  /** The same form from the crop dialog's fetcher: Remix single fetch posts it to /me/avatar.data. */
  const submitFromScript = (body: FormData, headers?: Record<string, string>, withCookie = true) =>
    server.request('/me/avatar.data', { method: 'POST', body, cookie: withCookie ? cookie : undefined, headers });

  it('GET redirects to /me', async () => {
    const res = await server.request('/me/avatar', { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/me');
  });

  it('sends anonymous people to the login page', async () => {
    const key = await avatarKeyOf(user.id);
    const res = await submit(fileForm(await picture('png'), 'a.png', 'image/png', { intent: 'upload' }), undefined, false);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?redirectTo=%2Fme%2Favatar');
    expect(await avatarKeyOf(user.id)).toBe(key);
  });

  it('upload (JS off) stores the avatar and redirects to /me with a success toast', async () => {
    const res = await submit(fileForm(await picture('jpeg', 1200, 800), 'holiday.jpg', 'image/jpeg', { intent: 'upload' }));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/me');
    expect(await toastOf(res.headers)).toEqual({ key: 'avatar.uploaded', type: 'success' });
    const key = await avatarKeyOf(user.id);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a refused upload redirects to /me with an error toast naming the reason', async () => {
    const key = await avatarKeyOf(user.id);
    const res = await submit(fileForm(Buffer.from('not an image'), 'fake.png', 'image/png', { intent: 'upload' }));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/me');
    const toast = (await toastOf(res.headers))!;
    expect(toast.type).toBe('error');
    expect(toast.key).toBe('avatar.uploadFailedWith');
    expect(toast.params?.reason).toBe('檔案格式不支援，請使用 JPEG、PNG 或 WebP 圖片');
    expect(await avatarKeyOf(user.id)).toBe(key);
  });

  it('an oversize part is FILE_TOO_LARGE', async () => {
    const key = await avatarKeyOf(user.id);
    const res = await submit(fileForm(Buffer.alloc(10 * 1024 * 1024 + 1, 0xff), 'big.jpg', 'image/jpeg', { intent: 'upload' }));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/me');
    const toast = (await toastOf(res.headers))!;
    expect(toast.type).toBe('error');
    expect(toast.params?.reason).toBe('檔案太大（上限 10 MB）');
    expect(await avatarKeyOf(user.id)).toBe(key);
  });

  it('the JS crop dialog gets JSON: the new URL, or the reason with the error status', async () => {
    const okRes = await submitFromScript(fileForm(await picture('webp', 100, 100), 'avatar.webp', 'image/webp', { intent: 'upload' }), {
      accept: 'application/json',
    });
    expect(okRes.status).toBe(200);
    expect(okRes.headers.get('cache-control')).toBe('private, no-store');
    const key = await avatarKeyOf(user.id);
    expect(singleFetchValue(okRes.text)).toEqual({ data: { ok: true, avatarUrl: blobUrl(key) } });
    expect(okRes.headers.get('set-cookie')).toBeNull();

    // What the dialog really sends: `_format=json` in the form, no Accept header.
    const again = await submitFromScript(fileForm(await picture('png', 300, 200), 'avatar.png', 'image/png', { intent: 'upload', _format: 'json' }));
    expect(again.status).toBe(200);
    const newKey = await avatarKeyOf(user.id);
    expect(newKey).not.toBe(key);
    expect(singleFetchValue(again.text)).toEqual({ data: { ok: true, avatarUrl: blobUrl(newKey) } });
    expect(again.headers.get('set-cookie')).toBeNull();

    const bad = await submitFromScript(
      fileForm(Buffer.from('GIF89a....'), 'avatar.webp', 'image/webp', { intent: 'upload', _format: 'json' }),
      { 'accept-language': 'en' },
    );
    expect(bad.status).toBe(415);
    const badValue = singleFetchValue(bad.text);
    expect(badValue.data.ok).toBe(false);
    expect(badValue.data.message).toMatch(/JPEG, PNG or WebP/);
    expect(await avatarKeyOf(user.id)).toBe(newKey);

    const anon = await submitFromScript(fileForm(await picture('png'), 'a.png', 'image/png', { intent: 'upload' }), { accept: 'application/json' }, false);
    expect(anon.status).toBe(401);
    expect(singleFetchValue(anon.text).data.ok).toBe(false);
    expect(await avatarKeyOf(user.id)).toBe(newKey);
  });

  it('remove without confirmation (JS off) goes to the confirmation page and removes nothing', async () => {
    const key = await avatarKeyOf(user.id);
    expect(key).not.toBeNull();
    const form = new FormData();
    form.append('intent', 'remove');
    const res = await submit(form);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/me/avatar?confirm=remove');
    expect(await avatarKeyOf(user.id)).toBe(key);
    // The page itself: a GET that asks, and changes nothing.
    const page = await server.request('/me/avatar?confirm=remove', { cookie });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    expect(page.text).toMatch(/<input type="hidden" name="confirmed" value="1"\/>/);
    const loaderData = await server.request(`/me/avatar.data?confirm=remove&_routes=${encodeURIComponent('routes/me+/avatar')}`, { cookie });
    expect(loaderData.status).toBe(200);
    // The page's title travels with its own data (the root no longer carries translations).
    expect(singleFetchValue(loaderData.text)).toEqual({ 'routes/me+/avatar': { data: { confirmRemove: true, title: '移除頭像' } } });
    expect(await avatarKeyOf(user.id)).toBe(key);
    const anon = await server.request('/me/avatar?confirm=remove');
    expect(anon.status).toBe(302);
    expect(anon.headers.get('location')).toBe('/login?redirectTo=%2Fme%2Favatar%3Fconfirm%3Dremove');
  });

  it('remove with confirmed=1 clears the avatar and redirects with a toast', async () => {
    const form = new FormData();
    form.append('intent', 'remove');
    form.append('confirmed', '1');
    const res = await submit(form);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/me');
    expect(await toastOf(res.headers)).toMatchObject({ key: 'avatar.removed' });
    expect(await avatarKeyOf(user.id)).toBeNull();
  });

  it('remove also works as a urlencoded post', async () => {
    await setAvatar(user, user.id, await picture('png'));
    // The remove button's own form is urlencoded (fetch sets application/x-www-form-urlencoded for URLSearchParams).
    const res = await submit(new URLSearchParams({ intent: 'remove', confirmed: '1' }));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/me');
    expect(await toastOf(res.headers)).toMatchObject({ key: 'avatar.removed' });
    expect(await avatarKeyOf(user.id)).toBeNull();
  });

  it('an unknown intent goes back to /me with an error toast', async () => {
    const form = new FormData();
    form.append('intent', 'explode');
    const res = await submit(form);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/me');
    expect((await toastOf(res.headers))?.type).toBe('error');
  });

  it('a form posted from another site is refused (403) and changes nothing', async () => {
    await setAvatar(user, user.id, await picture('png'));
    const key = await avatarKeyOf(user.id);
    const form = new FormData();
    form.append('intent', 'remove');
    form.append('confirmed', '1');
    const res = await server.request('/me/avatar', { method: 'POST', body: form, cookie, origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect(await avatarKeyOf(user.id)).toBe(key);
  });
});
