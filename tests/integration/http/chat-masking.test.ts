import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { chatMessages } from '~db/schema';
import { createGuide, createOrder, createTraveler, createUser } from '~server/seed/factories';
import { MASK } from '~/lib/contact-mask';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 31: the ways the guide read a phone number or a handle before a booking was confirmed, through the real
 * chat service over HTTP. Zero-width characters are refused at the door (400, translated); messages that already
 * hold them (stored before the rule) are still read masked; every other disguise is masked when read.
 */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());

const EVASIONS: Array<[string, string[]]> = [
  ['打給我 0912/345/678', ['0912', '345/678']],
  ['0912_345_678 晚上', ['0912', '345_678']],
  ['0912、345、678', ['0912', '345、678']],
  ['0912 -- 345 -- 678', ['0912', '345 -- 678']],
  ['𝟎𝟗𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖', ['𝟎𝟗𝟏𝟐']],
  ['٠٩١٢٣٤٥٦٧٨', ['٠٩١٢']],
  ['我的line是abc123', ['abc123']],
  ['我的賴是 abc123', ['abc123']],
  ['我的 LINE ID 是 chen_guide88', ['chen_guide88']],
  ['加我 lin.ee/AbCd12', ['AbCd12']],
  ['寫信到 abc@gmail。com', ['abc@', 'gmail']],
];
const INVISIBLE = ['\u200b', '\u2060', '\u00ad'];

async function conversation() {
  const traveler = await createTraveler();
  const guide = await createGuide();
  const t = await loginAs(traveler);
  const g = await loginAs(guide);
  const started = await server.request('/api/v1/chats', { token: t.token, json: { guideId: guide.id, message: '您好', clientId: 'c-0' } });
  expect(started.status).toBe(201);
  return { traveler, guide, t, g, chatId: started.json.data.chat.id as number };
}

const read = (token: string, chatId: number) => server.request(`/api/v1/chats/${chatId}/messages`, { token });

describe(`chat masking that cannot be walked around (${testDriver})`, () => {
  it('the guide reads every disguised number and handle masked before a confirmed booking; an admin reads the original', async () => {
    const { t, g, chatId } = await conversation();
    for (const [index, [text]] of EVASIONS.entries()) {
      const sent = await server.request(`/api/v1/chats/${chatId}/messages`, { token: t.token, json: { text, clientId: `e-${index}` } });
      expect(sent.status, text).toBe(201);
    }
    const seen = await read(g.token, chatId);
    expect(seen.status).toBe(200);
    for (const [text, pieces] of EVASIONS) {
      const message = seen.json.data.messages.find((m: { clientId: string; text: string }) => m.clientId === `e-${EVASIONS.findIndex(([x]) => x === text)}`);
      expect(message.masked, text).toBe(true);
      expect(message.text, text).toContain(MASK);
      for (const piece of pieces) expect(message.text, text).not.toContain(piece);
    }
    const list = await server.request('/api/v1/chats', { token: g.token });
    expect(list.json.data.chats[0].lastMessage.text).toContain(MASK);

    const admin = await loginAs(await createUser({ type: 'admin' }));
    const original = (await read(admin.token, chatId)).json.data.messages.map((m: { text: string }) => m.text);
    expect(original).toEqual(expect.arrayContaining(EVASIONS.map(([text]) => text)));
  });

  it('a message with format characters between the digits is refused with a translated error, in every language', async () => {
    const { t, chatId } = await conversation();
    const expected = { en: 'invisible formatting characters', ja: '見えない書式文字', 'zh-TW': '看不見的格式字元' };
    for (const invisible of INVISIBLE) {
      for (const [language, words] of Object.entries(expected)) {
        const sent = await server.request(`/api/v1/chats/${chatId}/messages`, {
          token: t.token,
          json: { text: `0912${invisible}345${invisible}678`, clientId: `z-${invisible.charCodeAt(0)}-${language}` },
          headers: { 'accept-language': language },
        });
        expect(sent.status, JSON.stringify(invisible)).toBe(400);
        expect(sent.json.code).toBe('VALIDATION_ERROR');
        expect(sent.json.errors.text.join(' ')).toContain(words);
      }
    }
    const started = await server.request('/api/v1/chats', { token: t.token, json: { guideId: (await createGuide()).id, message: `line${INVISIBLE[0]}: abc123` } });
    expect(started.status).toBe(400);
    expect(await getDb().select().from(chatMessages).where(eq(chatMessages.chatId, chatId))).toHaveLength(1);
  });

  it('messages stored with zero-width characters before the rule are read masked by the guide, and in full once the booking is confirmed', async () => {
    const { traveler, guide, g, chatId } = await conversation();
    for (const [index, invisible] of INVISIBLE.entries()) {
      await getDb().insert(chatMessages).values({ chatId, senderId: traveler.id, body: `電話 0912${invisible}345${invisible}678 晚上打`, clientId: `old-${index}` });
    }
    const before = (await read(g.token, chatId)).json.data.messages.filter((m: { clientId: string }) => m.clientId?.startsWith('old-'));
    expect(before).toHaveLength(INVISIBLE.length);
    for (const message of before) {
      expect(message).toMatchObject({ text: `電話 ${MASK} 晚上打`, masked: true });
    }
    await createOrder({ travelerId: traveler.id, guideId: guide.id, status: 'confirmed' });
    const after = (await read(g.token, chatId)).json.data.messages.filter((m: { clientId: string }) => m.clientId?.startsWith('old-'));
    for (const [index, message] of after.entries()) {
      expect(message).toMatchObject({ text: `電話 0912${INVISIBLE[index]}345${INVISIBLE[index]}678 晚上打`, masked: false });
    }
  });

  it('board posts and replies hold for the same disguises: masked for every reader', async () => {
    const { t } = await conversation();
    const body = EVASIONS.map(([text]) => text).join('\n');
    const created = await server.request('/api/v1/board/posts', { token: t.token, json: { city: 'taipei', languages: ['zh'], body } });
    expect(created.status).toBe(201);
    const postId = created.json.data.post.id as number;
    const reply = await server.request(`/api/v1/board/posts/${postId}/replies`, { token: t.token, json: { body: '補充：我的賴是 abc123' } });
    expect(reply.status).toBe(201);
    const anonymous = await server.request('/api/v1/board/posts');
    const replies = await server.request(`/api/v1/board/posts/${postId}/replies`);
    expect(anonymous.json.data.posts.map((p: { id: number }) => p.id)).toContain(postId);
    for (const answer of [anonymous, replies]) {
      expect(answer.status).toBe(200);
      for (const [, pieces] of EVASIONS) for (const piece of pieces) expect(answer.text).not.toContain(piece);
    }
    const refused = await server.request('/api/v1/board/posts', { token: t.token, json: { city: 'taipei', languages: ['zh'], body: `0912${INVISIBLE[0]}345678` } });
    expect(refused.status).toBe(400);
  });
});
