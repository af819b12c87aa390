/**
 * Fills an empty database for bench/chat.mjs and prints what the bench needs as JSON on stdout: `pairs`, each one
 * conversation (a `chats` row) between an e-mail-verified traveler and an active guide, with both sides' ids and
 * bearer tokens signed with SESSION_SECRET (the server's), made the way login makes them (a sessions row + a signed
 * token), so the bench skips the login rate limit and the "5 new conversations an hour" limit.
 *
 *   SESSION_SECRET=… npx tsx bench/chat-seed.ts <data-dir | postgres-url> <pairs>
 */
import { openDatabase } from '~db/client';
import { chats, users } from '~db/schema';
import { createSession } from '~/services/accounts/sessions.server';
import { signToken } from '~/services/accounts/tokens.server';

const [target, pairsArg] = process.argv.slice(2);
const secret = process.env.SESSION_SECRET;
if (!target || !secret) throw new Error('usage: SESSION_SECRET=… tsx bench/chat-seed.ts <data-dir | postgres-url> <pairs>');
const PAIRS = Number(pairsArg);

const handle = await openDatabase(target.startsWith('postgres') ? { url: target } : { dataDir: target });
await handle.migrate();
const db = handle.db;

const guideRows = await db
  .insert(users)
  .values(
    Array.from({ length: PAIRS }, (_, i) => ({
      name: `導遊 ${i}`,
      email: `bench-chat-guide-${i}@bench.test`,
      type: 'guide' as const,
      isEmailVerified: true,
      isIdVerified: true,
      guideStatus: 'active' as const,
      city: 'taipei',
      language: ['zh', 'en'],
      price: 2800,
      description: '台北一日導覽',
    })),
  )
  .returning();
const travelerRows = await db
  .insert(users)
  .values(Array.from({ length: PAIRS }, (_, i) => ({ name: `旅客 ${i}`, email: `bench-chat-traveler-${i}@bench.test`, type: 'traveler' as const, isEmailVerified: true })))
  .returning();

async function tokenOf(u: (typeof guideRows)[number]) {
  const session = await createSession(u.id, 'api', db);
  return signToken({ id: u.id, email: u.email, type: u.type, isEmailVerified: true, isIdVerified: u.isIdVerified, sid: session.id }, session.expiresAt, secret!);
}

const pairs = [];
for (let i = 0; i < PAIRS; i++) {
  const traveler = travelerRows[i]!;
  const guide = guideRows[i]!;
  const [chat] = await db.insert(chats).values({ travelerId: traveler.id, guideId: guide.id, createdAt: new Date() }).returning({ id: chats.id });
  pairs.push({
    chatId: chat!.id,
    traveler: { id: traveler.id, token: await tokenOf(traveler) },
    guide: { id: guide.id, token: await tokenOf(guide) },
  });
}
process.stderr.write(`seeded ${PAIRS} travelers, ${PAIRS} guides, ${PAIRS} conversations\n`);
process.stdout.write(JSON.stringify({ pairs }));
await handle.close();
