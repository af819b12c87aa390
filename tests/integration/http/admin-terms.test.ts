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
});
