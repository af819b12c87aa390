import { asc, eq, like } from 'drizzle-orm';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, banners } from '~db/schema';
import { blobUrl } from '~/services/platform/blobs.server';
import { setClock } from '~/services/platform/clock.server';
import { createGuide, createTraveler, createUser } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * /admin/banners and /api/v1/admin/banners (issue 22) over real HTTP: admins only; a banner made through the form
 * (preview first, with JS off: a multipart post that comes back with every value kept) shows on the home page in
 * each language, inside its window only, in the admin's order; every change has its audit row.
 */
useTestDatabase();
const server = useTestServer();
afterEach(() => setClock(undefined));
// One database for the file: each test starts without banners or their audit rows.
beforeEach(async () => {
  await getDb().delete(banners);
  await getDb().delete(auditLogs).where(like(auditLogs.action, 'banner.%'));
});

const db = () => getDb();
const png = (width = 900, height = 600) => sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } }).png().toBuffer();

function multipart(values: Record<string, string>, image?: { bytes: Buffer; name?: string; type?: string }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(values)) form.set(k, v);
  if (image) form.set('image', new Blob([new Uint8Array(image.bytes)], { type: image.type ?? 'image/png' }), image.name ?? 'banner.png');
  return form;
}

const TYPED = {
  title: '秋天的花蓮',
  titleEn: 'Hualien in autumn',
  titleJa: '',
  subtitle: '太魯閣的步道與海岸',
  subtitleEn: 'Taroko trails and the coast',
  subtitleJa: '',
  linkUrl: '/guides?city=hualien',
  isActive: 'on',
  startsAt: '',
  endsAt: '',
};

async function admin() {
  const user = await createUser({ type: 'admin' });
  return { user, ...(await loginAs(user)) };
}

const homeTitles = async (lng = 'zh-TW') => {
  const page = await server.request(`/?lng=${lng}`);
  expect(page.status).toBe(200);
  const section = /<section aria-label="[^"]*" class="banners">([\s\S]*?)<\/section>/.exec(page.text)?.[1] ?? '';
  return [...section.matchAll(/<strong>([^<]*)<\/strong>/g)].map((m) => m[1]);
};

describe(`/admin/banners (${testDriver})`, () => {
  it('is refused to visitors, travelers and guides, on the pages and the API, and they change nothing', async () => {
    const [banner] = await db().insert(banners).values({ title: '既有' }).returning();
    for (const path of ['/admin/banners', '/admin/banners/new', `/admin/banners/${banner!.id}`]) {
      expect((await server.request(path, { redirect: 'manual' })).status, path).toBe(302);
    }
    expect((await server.request('/api/v1/admin/banners')).status).toBe(401);
    for (const user of [await createTraveler(), await createGuide()]) {
      const { cookie, token } = await loginAs(user);
      for (const path of ['/admin/banners', '/admin/banners/new', `/admin/banners/${banner!.id}`]) {
        expect((await server.request(path, { cookie })).status, path).toBe(403);
      }
      expect((await server.request('/admin/banners/new', { method: 'POST', cookie, body: multipart({ ...TYPED, intent: 'save' }, { bytes: await png() }) })).status).toBe(403);
      expect((await server.request('/admin/banners', { method: 'POST', cookie, body: new URLSearchParams({ intent: 'delete', id: String(banner!.id), confirmed: 'yes' }) })).status).toBe(403);
      expect((await server.request('/api/v1/admin/banners', { token })).status).toBe(403);
      expect((await server.request('/api/v1/admin/banners', { method: 'POST', token, json: { title: '偷偷加' } })).status).toBe(403);
      expect((await server.request(`/api/v1/admin/banners/${banner!.id}`, { method: 'PUT', token, json: { title: '改掉' } })).status).toBe(403);
      expect((await server.request(`/api/v1/admin/banners/${banner!.id}`, { method: 'DELETE', token })).status).toBe(403);
      expect((await server.request(`/api/v1/admin/banners/${banner!.id}/move`, { method: 'POST', token, json: { direction: 'up' } })).status).toBe(403);
    }
    expect(await db().select({ title: banners.title }).from(banners)).toEqual([{ title: '既有' }]);
    expect(await db().select().from(auditLogs).where(like(auditLogs.action, 'banner.%'))).toHaveLength(0);
  });

  it('an admin previews a banner with a picture (every value kept), publishes it, and the home page shows it in each language', async () => {
    const { user, cookie } = await admin();
    const preview = await server.request('/admin/banners/new', { method: 'POST', cookie, body: multipart({ ...TYPED, intent: 'preview' }, { bytes: await png() }) });
    expect(preview.status).toBe(200);
    expect(preview.text).toContain('data-testid="banner-preview"');
    // The preview draws the stored picture (1200×400 webp) before any banner uses it.
    expect(preview.text).toMatch(/src="data:image\/webp;base64,/);
    expect(preview.text).toContain('value="Hualien in autumn"');
    expect(preview.text).toContain('value="/guides?city=hualien"');
    expect(preview.text).toContain('太魯閣的步道與海岸</textarea>');
    const imageKey = /name="imageKey" value="([0-9a-f]{64})"/.exec(preview.text)?.[1];
    expect(imageKey).toBeDefined();
    expect(await db().select().from(banners)).toHaveLength(0);
    // Not public before a banner uses it.
    expect((await server.request(blobUrl(imageKey!)!)).status).toBe(404);

    // The second press (JS off: the file input is empty now) publishes with the kept picture.
    const saved = await server.request('/admin/banners/new', { method: 'POST', cookie, body: multipart({ ...TYPED, imageKey: imageKey!, intent: 'save' }), redirect: 'manual' });
    expect(saved.status).toBe(302);
    expect(saved.headers.get('location')).toBe('/admin/banners');
    const [row] = await db().select().from(banners);
    expect(row).toMatchObject({ title: '秋天的花蓮', titleEn: 'Hualien in autumn', titleJa: null, linkUrl: '/guides?city=hualien', isActive: true, imageKey });
    const picture = await server.request(blobUrl(imageKey!)!);
    expect(picture.status).toBe(200);
    const meta = await sharp(Buffer.from(await (await fetch(`${server.baseUrl}${blobUrl(imageKey!)}`)).arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1200, 400]);

    expect(await homeTitles('zh-TW')).toEqual(['秋天的花蓮']);
    expect(await homeTitles('en')).toEqual(['Hualien in autumn']);
    // No Japanese text: the zh-TW one.
    expect(await homeTitles('ja')).toEqual(['秋天的花蓮']);
    const home = await server.request('/?lng=en');
    expect(home.text).toContain('href="/guides?city=hualien"');
    expect(home.text).toContain(`src="${blobUrl(imageKey!)}"`);

    const [audit] = await db().select().from(auditLogs).where(eq(auditLogs.action, 'banner.create'));
    expect(audit).toMatchObject({ actorId: user.id, targetType: 'banner', targetId: String(row!.id) });
    expect((audit!.details as { after: { title: string } }).after.title).toBe('秋天的花蓮');

    // Editing it: the list, the edit form with the values, a change that is audited with before and after.
    const list = await server.request('/admin/banners', { cookie });
    expect(list.status).toBe(200);
    expect(list.text).toContain('秋天的花蓮');
    const edit = await server.request(`/admin/banners/${row!.id}`, { cookie });
    expect(edit.text).toContain('value="Hualien in autumn"');
    const changed = await server.request(`/admin/banners/${row!.id}`, { method: 'POST', cookie, body: multipart({ ...TYPED, title: '冬天的花蓮', imageKey: imageKey!, intent: 'save' }), redirect: 'manual' });
    expect(changed.status).toBe(302);
    expect(await homeTitles()).toEqual(['冬天的花蓮']);
    const [update] = await db().select().from(auditLogs).where(eq(auditLogs.action, 'banner.update'));
    expect(update!.details).toMatchObject({ before: { title: '秋天的花蓮' }, after: { title: '冬天的花蓮' } });
  });

  it('refuses bad input with translated messages next to the fields, keeps what was typed, and saves nothing', async () => {
    const { cookie } = await admin();
    const post = (values: Record<string, string>, image?: Parameters<typeof multipart>[1], lng = 'zh-TW') =>
      server.request(`/admin/banners/new?lng=${lng}`, { method: 'POST', cookie, body: multipart({ ...TYPED, intent: 'save', ...values }, image) });

    const noTitle = await post({ title: '' });
    expect(noTitle.status).toBe(400);
    expect(noTitle.text).toContain('請輸入繁體中文標題');
    expect(noTitle.text).toContain('value="Hualien in autumn"');

    const badLink = await post({ linkUrl: 'javascript:alert(1)' }, undefined, 'en');
    expect(badLink.status).toBe(400);
    expect(badLink.text).toContain('The link must be a path on this site (starting with /) or an https:// address');
    for (const link of ['http://example.com/', '//evil.example/', 'https://user:pw@example.com/']) {
      expect((await post({ linkUrl: link })).status, link).toBe(400);
    }

    const window = await post({ startsAt: '2026-12-01T10:00', endsAt: '2026-11-30T10:00' }, undefined, 'ja');
    expect(window.status).toBe(400);
    expect(window.text).toContain('掲載終了は掲載開始より後にしてください');
    expect(window.text).toContain('value="2026-12-01T10:00"');

    const notImage = await post({}, { bytes: Buffer.from('not a picture at all'), name: 'x.png' });
    expect(notImage.status).toBe(415);
    expect(notImage.text).toContain('不支援的圖片格式，請使用 JPEG、PNG 或 WebP');
    expect(notImage.text).toContain('value="秋天的花蓮"');

    const huge = await post({}, { bytes: await png(5001, 5001) }, 'en');
    expect(huge.status).toBe(413);
    expect(huge.text).toContain('The picture is too large (10 MB and 25 megapixels at most)');

    // A key that names no stored picture (or a private one) is refused too.
    const forged = await post({ imageKey: 'a'.repeat(64) });
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('找不到這張圖片，請重新上傳');

    expect(await db().select().from(banners)).toHaveLength(0);
    expect(await db().select().from(auditLogs).where(like(auditLogs.action, 'banner.%'))).toHaveLength(0);
  });

  it('shows a banner on the home page only inside its window', async () => {
    const { token } = await admin();
    const t0 = new Date('2026-12-01T00:00:00Z');
    setClock(t0);
    const create = (title: string, extra: Record<string, unknown>) => server.request('/api/v1/admin/banners', { method: 'POST', token, json: { title, isActive: true, ...extra } });
    expect((await create('一直都在', {})).status).toBe(201);
    const later = await create('明天開始', { startsAt: '2026-12-02T00:00:00Z' });
    expect(later.status).toBe(201);
    expect(later.json.data.banner).toMatchObject({ live: false, startsAt: '2026-12-02T00:00:00.000Z' });
    // Taiwan time typed as in the form: 2026-12-01 10:00 in Taipei is 02:00 UTC.
    const ending = await create('今早結束', { endsAt: '2026-12-01T10:00' });
    expect(ending.json.data.banner.endsAt).toBe('2026-12-01T02:00:00.000Z');
    expect((await create('停用', { isActive: false })).status).toBe(201);

    expect(await homeTitles()).toEqual(['一直都在', '今早結束']);
    setClock(new Date('2026-12-01T03:00:00Z'));
    expect(await homeTitles()).toEqual(['一直都在']);
    setClock(new Date('2026-12-02T00:00:00Z'));
    expect(await homeTitles()).toEqual(['一直都在', '明天開始']);

    const refused = await create('反了', { startsAt: '2026-12-05T00:00:00Z', endsAt: '2026-12-04T00:00:00Z' });
    expect(refused.status).toBe(400);
    expect(refused.json.errors.endsAt).toEqual(['結束時間必須晚於開始時間']);
  });

  it('reorders with plain forms (audited), asks before deleting, and the API does the same through the same service', async () => {
    const { user, cookie, token } = await admin();
    for (const title of ['甲', '乙', '丙']) {
      expect((await server.request('/api/v1/admin/banners', { method: 'POST', token, json: { title, isActive: true } })).status).toBe(201);
    }
    expect(await homeTitles()).toEqual(['甲', '乙', '丙']);
    const ids = (await db().select({ id: banners.id }).from(banners).orderBy(asc(banners.id))).map((r) => r.id);
    const form = (values: Record<string, string>) => server.request('/admin/banners', { method: 'POST', cookie, body: new URLSearchParams(values), redirect: 'manual' });

    expect((await form({ intent: 'up', id: String(ids[2]) })).status).toBe(302);
    expect(await homeTitles()).toEqual(['甲', '丙', '乙']);
    expect((await form({ intent: 'down', id: String(ids[0]) })).status).toBe(302);
    expect(await homeTitles()).toEqual(['丙', '甲', '乙']);
    // Already first: nothing moves, nothing is audited.
    expect((await form({ intent: 'up', id: String(ids[2]) })).status).toBe(302);
    const moves = await db().select().from(auditLogs).where(eq(auditLogs.action, 'banner.move'));
    expect(moves.map((m) => [m.targetId, (m.details as { direction: string }).direction])).toEqual([
      [String(ids[2]), 'up'],
      [String(ids[0]), 'down'],
    ]);

    // Delete: the first press asks (the confirmation step with JS off), the confirmed one deletes.
    const asked = await form({ intent: 'delete', id: String(ids[1]) });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('data-testid="confirm-banner-delete"');
    expect(asked.text).toContain('「乙」將從首頁移除');
    expect(await homeTitles()).toEqual(['丙', '甲', '乙']);
    expect((await form({ intent: 'delete', id: String(ids[1]), confirmed: 'yes' })).status).toBe(302);
    expect(await homeTitles()).toEqual(['丙', '甲']);
    const [deleted] = await db().select().from(auditLogs).where(eq(auditLogs.action, 'banner.delete'));
    expect(deleted).toMatchObject({ actorId: user.id, targetId: String(ids[1]) });

    // The API: list in order, move, a partial update, a multipart picture, delete, 404 for what is gone.
    const listed = await server.request('/api/v1/admin/banners', { token });
    expect(listed.json.data.banners.map((b: { title: string; position: number }) => [b.position, b.title])).toEqual([[1, '丙'], [2, '甲']]);
    const moved = await server.request(`/api/v1/admin/banners/${ids[0]}/move`, { method: 'POST', token, json: { direction: 'up' } });
    expect(moved.json.data.banners.map((b: { title: string }) => b.title)).toEqual(['甲', '丙']);
    const put = await server.request(`/api/v1/admin/banners/${ids[0]}`, { method: 'PUT', token, json: { titleJa: '甲（日本語）', linkUrl: 'https://example.com/autumn' } });
    expect(put.status).toBe(200);
    expect(put.json.data.banner).toMatchObject({ title: '甲', titleJa: '甲（日本語）', linkUrl: 'https://example.com/autumn', isActive: true });
    const withPicture = await server.request(`/api/v1/admin/banners/${ids[0]}`, { method: 'PUT', token, body: multipart({}, { bytes: await png(400, 400) }) });
    expect(withPicture.status).toBe(200);
    expect(withPicture.json.data.banner.imageUrl).toMatch(/^\/uploads\//);
    expect(withPicture.json.data.banner.titleJa).toBe('甲（日本語）');
    expect(await homeTitles('ja')).toEqual(['甲（日本語）', '丙']);
    const badPut = await server.request(`/api/v1/admin/banners/${ids[0]}`, { method: 'PUT', token, json: { linkUrl: 'javascript:alert(1)' }, headers: { 'accept-language': 'en' } });
    expect(badPut.status).toBe(400);
    expect(badPut.json.errors.linkUrl).toEqual(['The link must be a path on this site (starting with /) or an https:// address']);
    expect((await server.request(`/api/v1/admin/banners/${ids[2]}`, { method: 'DELETE', token })).json.data).toEqual({ id: ids[2] });
    expect((await server.request(`/api/v1/admin/banners/${ids[2]}`, { method: 'DELETE', token })).status).toBe(404);
    expect((await server.request(`/api/v1/admin/banners/${ids[2]}`, { method: 'PUT', token, json: { title: 'x' } })).status).toBe(404);
    expect(await homeTitles()).toEqual(['甲']);
    const actions = (await db().select({ action: auditLogs.action }).from(auditLogs).where(like(auditLogs.action, 'banner.%'))).map((a) => a.action);
    expect(actions.filter((a) => a === 'banner.update')).toHaveLength(2);
    expect(actions.filter((a) => a === 'banner.delete')).toHaveLength(2);
  });
});
