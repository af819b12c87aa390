import { and, eq, like } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs } from '~db/schema';
import { createGuide, createTraveler, createUser } from '~server/seed/factories';
import { applyForIdVerification } from '~/services/trust/id-verification.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import type { UserRow } from '~/services/accounts/users.server';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 31, point 5: an admin reading what is private to others leaves an audit row, through every door that
 * shows it — a conversation the admin takes no part in (GET /api/v1/chats/{id}, GET /api/v1/chats/{id}/messages,
 * the /chat/:id page) and an ID document (GET /id-verification/documents/{id}/front|back). The people the data
 * belongs to read it without audit rows; a refused read writes none.
 */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());

type Login = Awaited<ReturnType<typeof loginAs>>;
let admin: UserRow;
let adminLogin: Login;

beforeAll(async () => {
  admin = await createUser({ type: 'admin', name: '稽核管理員' });
  adminLogin = await loginAs(admin);
});

const rowsOf = (action: string, targetType: string, targetId: number) =>
  getDb()
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.action, action), eq(auditLogs.targetType, targetType), eq(auditLogs.targetId, String(targetId))))
    .orderBy(auditLogs.id);

describe(`admin reads of private data are audited (${testDriver})`, () => {
  it('a conversation: each read by an admin through the API or the page is recorded with who, which conversation and which messages; the participants\' reads are not', async () => {
    const traveler = await createTraveler({ name: '私訊旅客' });
    const guide = await createGuide({ name: '私訊導遊' });
    const t = await loginAs(traveler);
    const g = await loginAs(guide);
    const started = await server.request('/api/v1/chats', { token: t.token, json: { guideId: guide.id, message: '請問週六有空嗎？', clientId: 'a-1' } });
    expect(started.status).toBe(201);
    const chatId: number = started.json.data.chat.id;
    const reply = await server.request(`/api/v1/chats/${chatId}/messages`, { token: g.token, json: { text: '有的，上午可以', clientId: 'b-1' } });
    expect(reply.status).toBe(201);
    const messageIds = [started.json.data.message.id as number, reply.json.data.message.id as number];

    // The two participants read it every way: no audit row.
    for (const login of [t, g]) {
      expect((await server.request(`/api/v1/chats/${chatId}/messages`, { token: login.token })).status).toBe(200);
      expect((await server.request(`/api/v1/chats/${chatId}`, { token: login.token })).status).toBe(200);
      expect((await server.request(`/chat/${chatId}`, { cookie: login.cookie })).status).toBe(200);
    }
    expect(await rowsOf('chat.read', 'chat', chatId)).toEqual([]);

    // A stranger and an unknown conversation: 404, nothing recorded.
    const stranger = await loginAs(await createTraveler());
    expect((await server.request(`/api/v1/chats/${chatId}/messages`, { token: stranger.token })).status).toBe(404);
    expect((await server.request('/api/v1/chats/987654/messages', { token: adminLogin.token })).status).toBe(404);
    expect(await getDb().select().from(auditLogs).where(like(auditLogs.action, 'chat.%'))).toEqual([]);

    // The admin reads the messages through the API.
    const read = await server.request(`/api/v1/chats/${chatId}/messages`, { token: adminLogin.token });
    expect(read.status).toBe(200);
    expect(read.json.data.messages.map((m: { text: string }) => m.text)).toEqual(['請問週六有空嗎？', '有的，上午可以']);
    let rows = await rowsOf('chat.read', 'chat', chatId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorId: admin.id,
      details: { travelerId: traveler.id, guideId: guide.id, messages: 2, firstMessageId: messageIds[0], lastMessageId: messageIds[1] },
    });

    // A catch-up after the last message shows nothing new: nothing recorded.
    const empty = await server.request(`/api/v1/chats/${chatId}/messages?after=${messageIds[1]}`, { token: adminLogin.token });
    expect(empty.json.data.messages).toEqual([]);
    expect(await rowsOf('chat.read', 'chat', chatId)).toHaveLength(1);

    // The conversation itself (it carries the last message) and the page: recorded too.
    expect((await server.request(`/api/v1/chats/${chatId}`, { token: adminLogin.token })).status).toBe(200);
    rows = await rowsOf('chat.read', 'chat', chatId);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ actorId: admin.id, details: { travelerId: traveler.id, guideId: guide.id, lastMessageId: messageIds[1] } });
    const page = await server.request(`/chat/${chatId}`, { cookie: adminLogin.cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('有的，上午可以');
    rows = await rowsOf('chat.read', 'chat', chatId);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((r) => r.actorId === admin.id)).toBe(true);
    expect(rows.some((r, i) => i >= 2 && (r.details as { messages?: number }).messages === 2)).toBe(true);

    // The audit log shows them.
    const log = await server.request(`/admin/logs?action=chat.read&targetType=chat&targetId=${chatId}`, { cookie: adminLogin.cookie });
    expect(log.status).toBe(200);
    expect(log.text).toContain('chat.read');
  });

  it('an ID document: each side an admin opens is recorded with the application and the side; the applicant\'s own views are not', async () => {
    const guide = await createGuide({ isIdVerified: false, idVerificationType: null, idVerifiedAt: null });
    const picture = (hue: number) => sharp({ create: { width: 600, height: 400, channels: 3, background: { r: hue, g: 120, b: 200 } } }).jpeg().toBuffer();
    const application = await applyForIdVerification(guide, { type: 'national_id', front: await picture(10), back: await picture(200) });
    const applicant = await loginAs(guide);
    const { front, back } = application.documents;
    expect(front).toBe(`/id-verification/documents/${application.id}/front`);

    for (const viewer of [{ cookie: applicant.cookie }, { token: applicant.token }]) expect((await server.request(front!, viewer)).status).toBe(200);
    const other = await loginAs(await createGuide());
    expect((await server.request(back!, { token: other.token })).status).toBe(404);
    expect(await rowsOf('id_verification.document_view', 'user', guide.id)).toEqual([]);

    const seenFront = await server.request(front!, { cookie: adminLogin.cookie });
    expect(seenFront.status).toBe(200);
    expect(seenFront.headers.get('content-type')).toBe('image/webp');
    expect((await server.request(back!, { token: adminLogin.token })).status).toBe(200);
    const rows = await rowsOf('id_verification.document_view', 'user', guide.id);
    expect(rows.map((r) => [r.actorId, r.details])).toEqual([
      [admin.id, { applicationId: application.id, side: 'front' }],
      [admin.id, { applicationId: application.id, side: 'back' }],
    ]);
    // An unknown side or application: 404, nothing more recorded.
    expect((await server.request(`/id-verification/documents/${application.id}/left`, { cookie: adminLogin.cookie })).status).toBe(404);
    expect((await server.request('/id-verification/documents/987654/front', { cookie: adminLogin.cookie })).status).toBe(404);
    expect(await rowsOf('id_verification.document_view', 'user', guide.id)).toHaveLength(2);
  });
});
