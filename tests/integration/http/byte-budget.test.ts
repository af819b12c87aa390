import fs from 'node:fs';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders, users } from '~db/schema';
import { startChat } from '~/services/messaging/chats.server';
import { seedDemo } from '~server/seed/demo';
// A plain ES module shared with bench/page-weight.mjs.
import { gzipBytes, weighPage } from '../../../scripts/lib/page-weight.mjs';
import budget from '../../byte-budget.json';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Byte budgets (issue 36): the gzip bytes of each page's HTML and first-load JavaScript, and the service worker's
 * precache, measured on the production build and the demo marketplace, may not grow past tests/byte-budget.json.
 * Bytes do not depend on a noisy machine, so unlike time they can be a test. A change that needs more bytes raises
 * the budget in the same commit and says why. The JavaScript is read from build/client, as the server serves it.
 * Measured once (PGlite): the database driver changes no byte. Needs the build (`npm test` builds first).
 */
const CLIENT_DIR = path.resolve('build/client');
const built = Boolean(process.env.TEST_SERVER_BUILD) && fs.existsSync(path.join(CLIENT_DIR, 'sw.js'));
const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

const database = useTestDatabase();
const server = useTestServer();

type Weight = { html: number; js: number };
const pageBudgets = budget.pages as Record<string, Weight>;

/** A built file by its URL's path (/assets/x.js → build/client/assets/x.js). */
const readAsset = async (url: string): Promise<Buffer> => fs.promises.readFile(path.join(CLIENT_DIR, new URL(url).pathname));

describe.skipIf(!built || testDriver !== 'pglite')('byte budgets (tests/byte-budget.json)', () => {
  it('no page and not the service worker precache is over its budget', async () => {
    const db = database.handle.db;
    await seedDemo(db, { admin: { email: 'budget-admin@example.tw', password: 'budget-admin-pass' } });
    // A demo traveler with an order, and a conversation with that order's guide.
    const [order] = await db
      .select({ id: orders.id, guideId: orders.guideId, travelerId: orders.travelerId })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.travelerId))
      .where(and(isNull(orders.deletedAt), eq(users.type, 'traveler')))
      .orderBy(orders.id)
      .limit(1);
    expect(order, 'the demo seed has orders').toBeDefined();
    const [traveler] = await db.select().from(users).where(eq(users.id, order!.travelerId));
    const { chat } = await startChat(traveler!, { guideId: order!.guideId, orderId: order!.id, message: '請問集合地點在哪裡？' });
    const { cookie } = await loginAs(traveler!);

    const pages: Array<[string, string, string | undefined]> = [
      ['/', '/', undefined],
      ['/guides', '/guides', undefined],
      ['/guides/:id', `/guides/${order!.guideId}`, undefined],
      ['/login', '/login', undefined],
      ['/booking/:guideId', `/booking/${order!.guideId}`, cookie],
      ['/orders/:id', `/orders/${order!.id}`, cookie],
      ['/chat/:chatId', `/chat/${chat.id}`, cookie],
      ['/api/docs', '/api/docs', undefined],
    ];
    const measured: Record<string, Weight> = {};
    for (const [name, url, withCookie] of pages) {
      const response = await server.request(url, { headers: { accept: HTML_ACCEPT }, cookie: withCookie, redirect: 'manual' });
      expect(response.status, `${url} answers 200`).toBe(200);
      const weight = await weighPage(response.text, server.baseUrl + url, readAsset);
      measured[name] = { html: weight.html, js: weight.js };
    }
    const sw = await fs.promises.readFile(path.join(CLIENT_DIR, 'sw.js'), 'utf8');
    const precacheList = JSON.parse(sw.match(/const PRECACHE=(\[[^\]]*\])/)![1]!) as string[];
    let precache = gzipBytes(sw);
    for (const file of precacheList) precache += gzipBytes(await fs.promises.readFile(path.join(CLIENT_DIR, file)));

    // The figures of this build, to raise a budget with (or to lower one when a change saved bytes).
    console.log(JSON.stringify({ pages: measured, precache }, null, 2));
    const over: string[] = [];
    for (const [name, weight] of Object.entries(measured)) {
      const limit = pageBudgets[name];
      if (!limit) over.push(`${name}: no budget`);
      else {
        if (weight.html > limit.html) over.push(`${name} HTML ${weight.html} B > ${limit.html} B`);
        if (weight.js > limit.js) over.push(`${name} JS ${weight.js} B > ${limit.js} B`);
      }
    }
    if (precache > budget.precache) over.push(`service worker precache ${precache} B > ${budget.precache} B`);
    expect(over).toEqual([]);
  }, 120_000);
});
