import { and, count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { favorites, idVerifications, photos } from '~db/schema';
import { MAX_PHOTOS_PER_GUIDE } from '~/schemas/trust';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { createGuide, createPhoto, createTraveler } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 21 (race tests): writes that one person can make several times at once, over real HTTP. PGlite runs one
 * transaction at a time, so only the PostgreSQL run (TEST_DRIVER=pg, in .ci/run) can show a race; there each
 * race is repeated for many rounds, each on fresh rows.
 */
useTestDatabase();
const server = useTestServer();

beforeEach(() => resetRateLimits());

const rounds = testDriver === 'pg' ? 20 : 1;
const CONCURRENT = 6;

let picturePromise: Promise<Buffer> | undefined;
const picture = () =>
  (picturePromise ??= sharp({ create: { width: 320, height: 200, channels: 3, background: '#2a7' } }).png().toBuffer());

function upload(files: Record<string, Buffer>, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [k, v] of Object.entries(files)) form.append(k, new File([new Uint8Array(v)], `${k}.png`, { type: 'image/png' }));
  return form;
}

/** The message key of the toast a redirect sets (Remix's signed cookie: base64 JSON, a dot, the signature). */
function toastKey(setCookie: string | null): string | undefined {
  const value = /(?:^|, )toast=([^;]+)/.exec(setCookie ?? '')?.[1];
  if (!value) return undefined;
  const signed = decodeURIComponent(value);
  return JSON.parse(Buffer.from(signed.slice(0, signed.lastIndexOf('.')), 'base64').toString('latin1')).key;
}

const rowCount = async (table: typeof photos | typeof favorites | typeof idVerifications, where: ReturnType<typeof eq>) =>
  Number((await getDb().select({ n: count() }).from(table).where(where))[0]!.n);

describe(`photo uploads at the per-guide limit (${testDriver})`, () => {
  it(`with one place left, ${CONCURRENT} simultaneous uploads store exactly one photo (${rounds} round(s))`, async () => {
    const bytes = await picture();
    for (let round = 0; round < rounds; round++) {
      const guide = await createGuide();
      for (let i = 0; i < MAX_PHOTOS_PER_GUIDE - 1; i++) await createPhoto(guide.id, { status: 'approved' });
      const { token } = await loginAs(guide);
      const answers = await Promise.all(
        Array.from({ length: CONCURRENT }, () => server.request('/api/v1/photos', { method: 'POST', token, body: upload({ photo: bytes }) })),
      );
      const label = `round ${round}: ${answers.map((a) => a.status).join(' ')}`;
      expect(answers.filter((a) => a.status === 201), label).toHaveLength(1);
      for (const refused of answers.filter((a) => a.status !== 201)) {
        expect(refused.status, label).toBe(400);
        expect(refused.json, label).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
      }
      expect(await rowCount(photos, eq(photos.guideId, guide.id)), label).toBe(MAX_PHOTOS_PER_GUIDE);
    }
  }, 240_000);
});

describe(`one traveler's favorites of one guide (${testDriver})`, () => {
  it(`${CONCURRENT} simultaneous adds keep one favorite: one 201, the others 200 with the same record (${rounds} round(s))`, async () => {
    const traveler = await createTraveler();
    const { token } = await loginAs(traveler);
    for (let round = 0; round < rounds; round++) {
      const guide = await createGuide();
      const answers = await Promise.all(
        Array.from({ length: CONCURRENT }, () => server.request('/api/v1/favorites', { token, json: { targetId: guide.id } })),
      );
      const label = `round ${round}: ${answers.map((a) => a.status).join(' ')}`;
      expect(answers.filter((a) => a.status === 201), label).toHaveLength(1);
      expect(answers.filter((a) => a.status === 200), label).toHaveLength(CONCURRENT - 1);
      expect(new Set(answers.map((a) => a.json.data.favorite.id)).size, label).toBe(1);
      expect(await rowCount(favorites, and(eq(favorites.userId, traveler.id), eq(favorites.targetId, guide.id))!), label).toBe(1);
    }
  }, 240_000);

  it(`${CONCURRENT} simultaneous toggles take turns: every answer is 200 and the rows left match the answers (${rounds} round(s))`, async () => {
    const traveler = await createTraveler();
    const { cookie } = await loginAs(traveler);
    for (let round = 0; round < rounds; round++) {
      const guide = await createGuide();
      const toggle = () =>
        server.request('/favorites', {
          method: 'POST',
          cookie,
          body: new URLSearchParams({ intent: 'toggle', guideId: String(guide.id), redirectTo: '/favorites' }),
        }).then((res) => ({ status: res.status, toast: toastKey(res.headers.get('set-cookie')) }));
      const answers = await Promise.all(Array.from({ length: CONCURRENT }, toggle));
      const label = `round ${round}: ${answers.map((a) => `${a.status}:${a.toast}`).join(' ')}`;
      // The plain form (JS off): a redirect back with a toast saying what happened.
      expect(answers.every((a) => a.status === 302), label).toBe(true);
      // Toggles one after another alternate, starting from none: added, removed, added …, so exactly half
      // (rounded up) of the answers say "added" and the rows left are the difference (0 or 1).
      const added = answers.filter((a) => a.toast === 'discover.favorites.added').length;
      const removed = answers.filter((a) => a.toast === 'discover.favorites.removed').length;
      expect(added + removed, label).toBe(CONCURRENT);
      expect(added, label).toBe(Math.ceil(CONCURRENT / 2));
      expect(await rowCount(favorites, and(eq(favorites.userId, traveler.id), eq(favorites.targetId, guide.id))!), label).toBe(added - removed);
    }
  }, 240_000);
});

describe(`ID verification applications (${testDriver})`, () => {
  it(`${CONCURRENT} simultaneous applications by one guide leave one pending application (${rounds} round(s))`, async () => {
    const bytes = await picture();
    for (let round = 0; round < rounds; round++) {
      const guide = await createGuide({ isIdVerified: false, idVerificationType: null, idVerifiedAt: null });
      const { token } = await loginAs(guide);
      const answers = await Promise.all(
        Array.from({ length: CONCURRENT }, () =>
          server.request('/api/v1/id-verification', { method: 'POST', token, body: upload({ front: bytes, back: bytes }, { type: 'national_id' }) }),
        ),
      );
      const label = `round ${round}: ${answers.map((a) => a.status).join(' ')}`;
      expect(answers.filter((a) => a.status === 201), label).toHaveLength(1);
      for (const refused of answers.filter((a) => a.status !== 201)) {
        expect(refused.json, label).toMatchObject({ success: false, code: 'ALREADY_VERIFIED' });
      }
      expect(await rowCount(idVerifications, eq(idVerifications.userId, guide.id)), label).toBe(1);
    }
  }, 240_000);
});
