import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '~db/client';
import { auditLogs, terms } from '~db/schema';
import { createGuide, createTraveler, createUser } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/** /admin/terms (issue 22) over real HTTP: admins only; publishing is a plain form post, audited, version only up. */
useTestDatabase();
const server = useTestServer();

const form = (values: Record<string, string>) => new URLSearchParams(values).toString();
const NEW_VERSION = { kind: 'terms', locale: 'en', version: '1.1.0', title: 'Terms of Service', content: '## Changed\n\nNew text.', intent: 'publish' };

describe(`/admin/terms (${testDriver})`, () => {
  it('is refused to visitors, travelers and guides, who change nothing', async () => {
    const anonymous = await server.request('/admin/terms', { redirect: 'manual' });
    expect(anonymous.status).toBe(302);
    for (const user of [await createTraveler(), await createGuide()]) {
      const { cookie } = await loginAs(user);
      expect((await server.request('/admin/terms', { cookie })).status).toBe(403);
      const post = await server.request('/admin/terms', {
        method: 'POST',
        cookie,
        body: form(NEW_VERSION),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(post.status).toBe(403);
    }
    expect(await getDb().select().from(terms)).toHaveLength(0);
  });

  it('an admin previews, publishes (audited), and cannot publish a version that does not go up', async () => {
    const admin = await createUser({ type: 'admin' });
    const { cookie } = await loginAs(admin);
    const page = await server.request('/admin/terms', { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<h1>[^<]+<\/h1>/);
    // Issue 35: the way back to the console, and the console's table style.
    expect(page.text).toContain('href="/admin">← ');
    expect(page.text).toContain('<table class="admin-table terms-table">');

    // Issue 35: the new version starts from the current text of the chosen kind and language (here the built-in one).
    const start = await server.request('/admin/terms?kind=terms&locale=en', { cookie });
    expect(start.text).toContain('## 4. Privacy');
    expect(start.text).toMatch(/name="locale" value="en"/);

    const post = (values: Record<string, string>) =>
      server.request('/admin/terms', { method: 'POST', cookie, body: form(values), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const preview = await post({ ...NEW_VERSION, intent: 'preview' });
    expect(preview.status).toBe(200);
    expect(preview.text).toContain('<h2>Changed</h2>');
    // What publishing does, before it is done (the admin page is in zh-TW here).
    expect(preview.text).toContain('發布後，使用English的每位使用者都需要再次同意服務條款');
    const confirmed = /name="confirmed" value="([0-9a-f]{8})"/.exec(preview.text)?.[1];
    expect(confirmed).toBeTruthy();
    expect(await getDb().select().from(terms)).toHaveLength(0);

    // Publishing without the confirmation, or with one of another draft (changed after its preview): a preview again.
    for (const unconfirmed of [NEW_VERSION, { ...NEW_VERSION, content: 'Changed after the preview', confirmed: confirmed! }]) {
      const answer = await post(unconfirmed);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('data-testid="terms-confirm"');
      expect(await getDb().select().from(terms)).toHaveLength(0);
    }

    const published = await server.request('/admin/terms', { method: 'POST', cookie, body: form({ ...NEW_VERSION, confirmed: confirmed! }), headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });
    expect(published.status).toBe(302);
    expect(published.headers.get('location')).toBe('/admin/terms?kind=terms&locale=en');
    const [row] = await getDb().select().from(terms);
    expect(row).toMatchObject({ kind: 'terms', locale: 'en', version: '1.1.0', isActive: true });
    const audit = await getDb().select().from(auditLogs).where(eq(auditLogs.action, 'terms.publish'));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: admin.id, targetId: String(row!.id) });

    const again = await server.request('/admin/terms', { method: 'POST', cookie, body: form({ ...NEW_VERSION, confirmed: confirmed! }), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(again.status).toBe(400);
    expect(again.text).toContain('版本必須高於目前的版本');
    expect(await getDb().select().from(terms)).toHaveLength(1);
  });

  it('an admin publishes one version in the three languages at once, after a preview of the three texts (issue 35)', async () => {
    const { cookie } = await loginAs(await createUser({ type: 'admin' }));
    const start = await server.request('/admin/terms?kind=terms&locale=all', { cookie });
    expect(start.status).toBe(200);
    for (const name of ['texts[0].content', 'texts[1].content', 'texts[2].content']) expect(start.text).toContain(`name="${name}"`);
    // Each language from its current text: English from the version published above, the others built in.
    expect(start.text).toContain('## Changed');
    expect(start.text).toContain('## 一、服務說明');

    const values = {
      kind: 'terms',
      locale: 'all',
      version: '3.0.0',
      'texts[0].locale': 'zh-TW',
      'texts[0].title': '服務條款',
      'texts[0].content': '## 中文第三版',
      'texts[1].locale': 'en',
      'texts[1].title': 'Terms of Service',
      'texts[1].content': '## English third',
      'texts[2].locale': 'ja',
      'texts[2].title': '利用規約',
      'texts[2].content': '## 日本語第三版',
    };
    const post = (extra: Record<string, string>) =>
      server.request('/admin/terms', { method: 'POST', cookie, body: form({ ...values, ...extra }), headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });
    const preview = await post({ intent: 'preview' });
    expect(preview.status).toBe(200);
    for (const heading of ['<h2>中文第三版</h2>', '<h2>English third</h2>', '<h2>日本語第三版</h2>']) expect(preview.text).toContain(heading);
    expect(preview.text).toContain('發布後，使用繁體中文、English、日本語的每位使用者都需要再次同意服務條款');
    const confirmed = /name="confirmed" value="([0-9a-f]{8})"/.exec(preview.text)![1]!;
    const before = (await getDb().select().from(terms)).length;

    const published = await post({ intent: 'publish', confirmed });
    expect(published.status).toBe(302);
    expect(published.headers.get('location')).toBe('/admin/terms?kind=terms&locale=all');
    const rows = (await getDb().select().from(terms)).filter((row) => row.version === '3.0.0');
    expect(rows.map((row) => row.locale).sort()).toEqual(['en', 'ja', 'zh-TW']);
    expect(rows.every((row) => row.isActive)).toBe(true);
    expect((await getDb().select().from(terms)).length).toBe(before + 3);
    const audit = await getDb().select().from(auditLogs).where(eq(auditLogs.action, 'terms.publish'));
    expect(audit.filter((entry) => rows.some((row) => String(row.id) === entry.targetId))).toHaveLength(3);
  });
});
