import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, boardPosts } from '~db/schema';
import { createGuide, createTraveler, createUser } from '~server/seed/factories';
import { MASK } from '~/lib/contact-mask';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { expectContract } from '../../support/openapi';
import { testDriver, useTestDatabase } from '../../support/test-database';

/** The message board over real HTTP (issue 23): post, read, filter, page, mask, delete, hide. */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());

const post = (token: string, json: Record<string, unknown>) => server.request('/api/v1/board/posts', { token, json });
const trip = { city: '台北', languages: ['ja'], startDate: '2026-12-24', endDate: '2026-12-26', body: '三人想找會日文的導遊，LINE: meilin88' };

describe(`message board over HTTP (${testDriver})`, () => {
  it('a traveler posts; anyone reads it newest first, masked; filters by city and language', async () => {
    const traveler = await loginAs(await createTraveler({ name: '小美' }));
    const created = await post(traveler.token, trip);
    expect(created.status).toBe(201);
    await expectContract(server, 'POST', '/api/v1/board/posts', created);
    expect(created.json.data.post).toMatchObject({ city: 'taipei', languages: ['ja'], authorName: '小美', body: `三人想找會日文的導遊，${MASK}`, masked: true });
    await post(traveler.token, { ...trip, city: 'tainan', languages: ['en'], body: 'Second post' });

    const all = await server.request('/api/v1/board/posts');
    expect(all.status).toBe(200);
    await expectContract(server, 'GET', '/api/v1/board/posts', all);
    expect(all.json.data.posts.map((p: { body: string }) => p.body).slice(0, 2)).toEqual(['Second post', `三人想找會日文的導遊，${MASK}`]);
    expect((await server.request('/api/v1/board/posts?city=taipei')).json.data.posts).toHaveLength(1);
    expect((await server.request('/api/v1/board/posts?language=en')).json.data.posts[0].body).toBe('Second post');

    const page = await server.request('/board?city=tainan');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Second post');
    expect(page.text).not.toContain('meilin88');
  });

  it('a verified e-mail to post; travelers only; bad input is 400 and stores nothing', async () => {
    const before = (await getDb().select().from(boardPosts)).length;
    const unverified = await loginAs(await createTraveler({ isEmailVerified: false, emailVerifiedAt: null }));
    expect((await post(unverified.token, trip)).json.code).toBe('EMAIL_NOT_VERIFIED');
    const guide = await loginAs(await createGuide());
    expect((await post(guide.token, trip)).status).toBe(403);
    const traveler = await loginAs(await createTraveler());
    const bad = await post(traveler.token, { ...trip, body: 'x'.repeat(2001) });
    expect(bad.status).toBe(400);
    expect((await post(traveler.token, { ...trip, startDate: '2026-12-26', endDate: '2026-12-24' })).status).toBe(400);
    expect(await getDb().select().from(boardPosts)).toHaveLength(before);
  });

  it('the author deletes their post; others cannot; an admin hides one with a reason, audited', async () => {
    const author = await loginAs(await createTraveler());
    const other = await loginAs(await createTraveler());
    const id = (await post(author.token, trip)).json.data.post.id;
    expect((await server.request(`/api/v1/board/posts/${id}`, { token: other.token, method: 'DELETE' })).status).toBe(403);
    const admin = await createUser({ type: 'admin' });
    const adminLogin = await loginAs(admin);
    expect((await server.request(`/api/v1/board/posts/${id}/hide`, { token: other.token, method: 'PATCH', json: { reason: 'spam' } })).status).toBe(403);
    const hidden = await server.request(`/api/v1/board/posts/${id}/hide`, { token: adminLogin.token, method: 'PATCH', json: { reason: '聯絡方式廣告' } });
    expect(hidden.status).toBe(200);
    await expectContract(server, 'PATCH', '/api/v1/board/posts/{id}/hide', hidden);
    expect(hidden.json.data.post).toMatchObject({ isHidden: true, hiddenReason: '聯絡方式廣告', body: trip.body });
    expect((await server.request('/api/v1/board/posts')).json.data.posts.map((p: { id: number }) => p.id)).not.toContain(id);
    const [audit] = await getDb().select().from(auditLogs).where(eq(auditLogs.action, 'board.hide'));
    expect(audit).toMatchObject({ actorId: admin.id, targetType: 'board_post', targetId: String(id), details: { reason: '聯絡方式廣告' } });

    const second = (await post(author.token, trip)).json.data.post.id;
    const deleted = await server.request(`/api/v1/board/posts/${second}`, { token: author.token, method: 'DELETE' });
    expect(deleted.status).toBe(200);
    await expectContract(server, 'DELETE', '/api/v1/board/posts/{id}', deleted);
    expect(await getDb().select().from(boardPosts).where(eq(boardPosts.id, second))).toEqual([]);
  });
});
