import fs from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { orders, users } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { DEFAULT_MAX_GROUP_SIZE, GROUP_SIZE_MAX, GROUP_SIZE_MIN } from '~/lib/group-size';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { loginAs } from '../../support/api';
import { createAvailability, createGuide, createTraveler } from '~server/seed/factories';
import { useTestServer } from '../../support/http-server';
import { expectContract, openApiDocument } from '../../support/openapi';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 19 / docs/decisions/016-group-size.md over real HTTP: each guide's maximum group size (migration 0011),
 * set in the profile (API and /me form), shown with the price, and held by the booking service for the API and
 * the booking page alike.
 */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());

const day = () => addDays(todayInTaipei(), 3);

async function bookableGuide(maxGroupSize?: number) {
  const guide = await createGuide({ price: 2800, ...(maxGroupSize === undefined ? {} : { maxGroupSize }) });
  await createAvailability(guide.id, { from: todayInTaipei(), days: 6, price: 2800 });
  return guide;
}

const book = (token: string, guideId: number, numberOfPeople: number | string, language = 'zh-TW', timeSlot = 'morning') =>
  server.request('/api/v1/orders', {
    token,
    headers: { 'accept-language': language },
    json: { guideId, date: day(), timeSlot, numberOfPeople, termsAccepted: true },
  });

const putProfile = (token: string, guideId: number, body: Record<string, unknown>, language = 'zh-TW') =>
  server.request(`/api/v1/guides/${guideId}/profile`, { method: 'PUT', token, headers: { 'accept-language': language }, json: body });

const profileBody = { city: 'taipei', language: ['zh'], price: 2500, description: '帶你走訪在地景點。' };

function formPost(path: string, cookie: string, values: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) for (const one of [v].flat()) body.append(k, one);
  return server.request(path, {
    method: 'POST',
    cookie,
    origin: server.baseUrl,
    headers: { 'accept-language': 'zh-TW', 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  });
}

const MIGRATION = new URL('../../../db/migrations/0011_guide_max_group_size.sql', import.meta.url);

describe(`migration 0011: users.max_group_size (${testDriver})`, () => {
  it('gives every existing guide the default maximum', async () => {
    const guide = await createGuide();
    await getDb().execute(sql.raw(`ALTER TABLE "users" DROP CONSTRAINT "users_max_group_size_range"`));
    await getDb().execute(sql.raw(`ALTER TABLE "users" DROP COLUMN "max_group_size"`));
    await getDb().transaction(async (tx) => {
      for (const statement of fs.readFileSync(MIGRATION, 'utf8').split('--> statement-breakpoint')) await tx.execute(sql.raw(statement));
    });
    const [row] = await getDb().select({ max: users.maxGroupSize }).from(users).where(eq(users.id, guide.id));
    expect(row!.max).toBe(DEFAULT_MAX_GROUP_SIZE);
  });

  it('is NOT NULL with the default and the range of app/lib/group-size.ts', async () => {
    const result = await getDb().execute(
      sql`select is_nullable, column_default from information_schema.columns where table_name = 'users' and column_name = 'max_group_size'`,
    );
    const [column] = (result as unknown as { rows: Array<{ is_nullable: string; column_default: string }> }).rows;
    expect(column).toEqual({ is_nullable: 'NO', column_default: String(DEFAULT_MAX_GROUP_SIZE) });

    const guide = await createGuide();
    expect(guide.maxGroupSize).toBe(DEFAULT_MAX_GROUP_SIZE);
    for (const ok of [GROUP_SIZE_MIN, GROUP_SIZE_MAX]) {
      await getDb().update(users).set({ maxGroupSize: ok }).where(eq(users.id, guide.id));
    }
    for (const bad of [GROUP_SIZE_MIN - 1, GROUP_SIZE_MAX + 1]) {
      await expect(getDb().update(users).set({ maxGroupSize: bad }).where(eq(users.id, guide.id))).rejects.toThrow();
    }
  });
});

describe(`the guide's maximum group size over HTTP (${testDriver})`, () => {
  it('a booking above the maximum is 400 VALIDATION_ERROR on numberOfPeople naming it, in zh-TW, en and ja', async () => {
    const guide = await bookableGuide(6);
    const traveler = await loginAs(await createTraveler());
    const expected = { 'zh-TW': '這位導遊每團最多接待 6 人', en: 'This guide takes groups of up to 6 people', ja: '1回の予約で受け入れるのは6名まで' };
    for (const [language, words] of Object.entries(expected)) {
      const res = await book(traveler.token, guide.id, 7, language);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('VALIDATION_ERROR');
      expect(res.json.message).toContain(words);
      expect(Object.keys(res.json.errors)).toEqual(['numberOfPeople']);
      expect(res.json.errors.numberOfPeople[0]).not.toMatch(/^validation\./);
    }
    await expectContract(server, 'POST', '/api/v1/orders', await book(traveler.token, guide.id, '7'));
    expect(await getDb().select().from(orders).where(eq(orders.guideId, guide.id))).toEqual([]);

    const atMax = await book(traveler.token, guide.id, 6);
    expect(atMax.status).toBe(201);
    expect(atMax.json.data.order ?? atMax.json.data).toMatchObject({ numberOfPeople: 6 });
  });

  it('a guide of one takes one person', async () => {
    const guide = await bookableGuide(1);
    const traveler = await loginAs(await createTraveler());
    const two = await book(traveler.token, guide.id, 2, 'en');
    expect(two.status).toBe(400);
    expect(two.json.message).toBe('This guide takes only 1 person per booking. Please book for fewer people.');
    expect((await book(traveler.token, guide.id, 1, 'en')).status).toBe(201);
  });

  it('the booking page: the people field stops at the maximum and says so; a bigger group is refused with JS off', async () => {
    const guide = await bookableGuide(4);
    const traveler = await loginAs(await createTraveler());
    const page = await server.request(`/booking/${guide.id}`, { cookie: traveler.cookie, headers: { 'accept-language': 'zh-TW' } });
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<input[^>]*name="numberOfPeople"[^>]*max="4"|<input[^>]*max="4"[^>]*name="numberOfPeople"/);
    expect(page.text).toContain('1 到 4 人（這位導遊每團的上限）');

    const refused = await formPost(`/booking/${guide.id}`, traveler.cookie, {
      slot: `${day()}|afternoon`,
      numberOfPeople: '5',
      termsAccepted: 'on',
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('這位導遊每團最多接待 4 人');
    expect(refused.text).toContain('人數超過這位導遊每團的上限');
    const booked = await formPost(`/booking/${guide.id}`, traveler.cookie, { slot: `${day()}|afternoon`, numberOfPeople: '4', termsAccepted: 'on' });
    expect(booked.status).toBe(302);
    // Booked: a paid tour goes on to its payment step (issue 32).
    expect(booked.headers.get('location')).toMatch(/^\/orders\/\d+\/pay$/);
  });

  it('PUT /guides/{id}/profile sets the maximum; an absent one keeps it; out of range is refused', async () => {
    const guide = await createGuide();
    const { token } = await loginAs(guide);
    const set = await putProfile(token, guide.id, { ...profileBody, maxGroupSize: '12' });
    expect(set.status).toBe(200);
    await expectContract(server, 'PUT', '/api/v1/guides/{id}/profile', set);
    expect(set.json.data.user.maxGroupSize).toBe(12);

    const kept = await putProfile(token, guide.id, { ...profileBody, price: 2600 });
    expect(kept.status).toBe(200);
    expect(kept.json.data.user).toMatchObject({ price: 2600, maxGroupSize: 12 });

    for (const bad of [0, 51, 2.5, 'ten']) {
      const res = await putProfile(token, guide.id, { ...profileBody, maxGroupSize: bad }, 'en');
      expect(res.status).toBe(400);
      expect(res.json.errors).toEqual({ maxGroupSize: ['The maximum group size must be a whole number from 1 to 50'] });
    }
    const [row] = await getDb().select({ max: users.maxGroupSize }).from(users).where(eq(users.id, guide.id));
    expect(row!.max).toBe(12);

    // The guide's card and page say it next to the price.
    const detail = await server.request(`/api/v1/guides/${guide.id}`, { headers: { 'accept-language': 'en' } });
    await expectContract(server, 'GET', '/api/v1/guides/{id}', detail);
    expect(detail.json.data.guide).toMatchObject({ price: 2600, maxGroupSize: 12 });
    const list = await server.request('/api/v1/guides?limit=100');
    expect(list.json.data.guides.find((g: { id: number }) => g.id === guide.id)).toMatchObject({ maxGroupSize: 12 });
    const html = await server.request(`/guides/${guide.id}`, { headers: { 'accept-language': 'ja' } });
    // The words a reader sees (the group limit is kept on one line by its own element).
    expect(html.text.replace(/<[^>]+>/g, '')).toContain('／1枠（1グループ12名まで）');
  });

  it('the /me form sets it with JS off and shows it with the price', async () => {
    const guide = await createGuide({ maxGroupSize: 8 });
    const { cookie } = await loginAs(guide);
    const edit = await server.request('/me?edit=1', { cookie, headers: { 'accept-language': 'zh-TW' } });
    expect(edit.text).toContain('每團人數上限');
    expect(edit.text).toMatch(/name="maxGroupSize"[^>]*value="8"|value="8"[^>]*name="maxGroupSize"/);
    const saved = await formPost('/me?edit=1', cookie, {
      intent: 'save',
      name: guide.name,
      email: guide.email,
      city: 'taipei',
      language: ['zh'],
      price: '2000',
      maxGroupSize: '15',
      description: '帶你走訪在地景點。',
    });
    expect(saved.status).toBeLessThan(400);
    const [row] = await getDb().select({ max: users.maxGroupSize }).from(users).where(eq(users.id, guide.id));
    expect(row!.max).toBe(15);
    const view = await server.request('/me', { cookie, headers: { 'accept-language': 'zh-TW' } });
    expect(view.text).toContain('／時段（每團最多 15 人）');
  });

  it('registration takes it, with the default when absent, and the OpenAPI document has the field', async () => {
    const base = { type: 'guide', name: '林導遊', password: 'secret123', ...profileBody };
    const withMax = await server.request('/api/v1/auth/register', { json: { ...base, email: 'max-a@example.tw', maxGroupSize: 20 } });
    expect(withMax.status).toBe(201);
    const without = await server.request('/api/v1/auth/register', { json: { ...base, email: 'max-b@example.tw' } });
    expect(without.status).toBe(201);
    const rows = await getDb().select({ email: users.email, max: users.maxGroupSize }).from(users).where(sql`${users.email} like 'max-%'`);
    expect(Object.fromEntries(rows.map((r) => [r.email, r.max]))).toEqual({ 'max-a@example.tw': 20, 'max-b@example.tw': DEFAULT_MAX_GROUP_SIZE });

    const { doc } = await openApiDocument(server);
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/per day|daily price/i);
    const paths = (doc as any).paths;
    const put = paths['/api/v1/guides/{id}/profile'].put;
    expect(JSON.stringify(put.requestBody)).toContain('maxGroupSize');
    expect(JSON.stringify(paths['/api/v1/guides/{id}'].get.responses)).toContain('maxGroupSize');
    expect(JSON.stringify(paths['/api/v1/auth/register'].post.requestBody)).toContain('maxGroupSize');
  });
});
