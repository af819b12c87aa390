import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb, type Database } from '~db/client';
import { guidePayoutAccounts } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { recordAuthorisation, recordCapture, recordSettlement, startPayout } from '~/services/payments/ledger.server';
import { savePayoutAccount } from '~/services/payments/payout-accounts.server';
import { hashPassword } from '~/services/accounts/passwords.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { createGuide, createOrder, createTraveler } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * The guide's money over real HTTP (issue 32): GET /api/v1/earnings, GET /api/v1/payouts, GET and PUT
 * /api/v1/payout-account (guides only, numbers masked, a wrong password changes nothing), and the /me earnings
 * tab's bank account form as a browser without JS posts it (303 back; a refusal re-renders with what was typed,
 * never the password).
 */
useTestDatabase();
const server = useTestServer();

const inTx = <T,>(fn: (tx: Database) => Promise<T>) => getDb().transaction((tx) => fn(tx as unknown as Database));
const PASSWORD = 'guide-secret-1';

let guide: Awaited<ReturnType<typeof createGuide>>;
let traveler: Awaited<ReturnType<typeof createTraveler>>;
let guideAuth: { token: string; cookie: string };
let orderIds: number[];

beforeAll(async () => {
  guide = await createGuide({ passwordHash: await hashPassword(PASSWORD) });
  traveler = await createTraveler({ name: '旅客阿明' });
  guideAuth = await loginAs(guide);
  await savePayoutAccount(getDb(), { guideId: guide.id, bankCode: '808', accountNumber: '5566778899', now: new Date() });
  orderIds = [];
  for (const [i, total] of [2000, 3000].entries()) {
    const o = await createOrder({ travelerId: traveler.id, guideId: guide.id, totalPrice: total, status: 'cancelled', date: addDays(todayInTaipei(), 3 + i) });
    await inTx((tx) => recordAuthorisation(tx, { orderId: o.id, amount: total, idempotencyKey: `payment:${o.id}:authorise` }));
    await inTx((tx) => recordCapture(tx, { orderId: o.id, idempotencyKey: `payment:${o.id}:capture` }));
    orderIds.push(o.id);
  }
  // The first order completed and paid out; the second still held.
  await inTx((tx) => recordSettlement(tx, { orderId: orderIds[0]!, guideId: guide.id, commissionPercent: 10, idempotencyKey: `order:${orderIds[0]}:settle` }));
  await inTx((tx) => startPayout(tx, { guideId: guide.id, settledBefore: new Date(Date.now() + 1000) }));
});

const form = (cookie: string, values: Record<string, string>) =>
  server.request('/me?tab=earnings', {
    method: 'POST',
    cookie,
    origin: server.baseUrl,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
    body: new URLSearchParams({ intent: 'payout-account', ...values }).toString(),
  });

describe(`the guide's money over HTTP (${testDriver})`, () => {
  it('GET /api/v1/earnings: the guide’s own lines and totals; 403 for a traveler, 401 without a login', async () => {
    const res = await server.request('/api/v1/earnings', { token: guideAuth.token });
    expect(res.status).toBe(200);
    expect(res.json.data.totals).toEqual({ held: 2700, payable: 0, payableNow: 0, inTransit: 1800, paidOut: 0 });
    expect(res.json.data.lines.map((l: { orderId: number; state: string; net: number; travelerName: string }) => [l.orderId, l.state, l.net, l.travelerName])).toEqual([
      [orderIds[1], 'held', 2700, '旅客阿明'],
      [orderIds[0], 'in_payout', 1800, '旅客阿明'],
    ]);
    const { token } = await loginAs(traveler);
    const refused = await server.request('/api/v1/earnings', { token });
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe('FORBIDDEN');
    expect((await server.request('/api/v1/earnings')).status).toBe(401);
  });

  it('GET /api/v1/payouts: the guide’s payouts with the account masked; 403 for a traveler', async () => {
    const res = await server.request('/api/v1/payouts', { token: guideAuth.token });
    expect(res.status).toBe(200);
    expect(res.json.data.payouts).toEqual([
      expect.objectContaining({ amount: 1800, status: 'in_transit', orderCount: 1, bankCode: '808', accountNumberMasked: '••••••8899', paidAt: null }),
    ]);
    expect(res.text).not.toContain('5566778899');
    const { token } = await loginAs(traveler);
    expect((await server.request('/api/v1/payouts', { token })).status).toBe(403);
  });

  it('GET and PUT /api/v1/payout-account: masked; 400 for a malformed body; a wrong password (401) changes nothing; 403 for a traveler', async () => {
    resetRateLimits();
    const got = await server.request('/api/v1/payout-account', { token: guideAuth.token });
    expect(got.status).toBe(200);
    expect(got.json.data.account).toMatchObject({ bankCode: '808', accountNumberMasked: '••••••8899' });
    expect(got.text).not.toContain('5566778899');

    const bad = await server.request('/api/v1/payout-account', { method: 'PUT', token: guideAuth.token, json: { bankCode: '80', accountNumber: '12ab', password: PASSWORD } });
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('VALIDATION_ERROR');

    const wrong = await server.request('/api/v1/payout-account', { method: 'PUT', token: guideAuth.token, json: { bankCode: '012', accountNumber: '1122334455', password: 'not-it' } });
    expect(wrong.status).toBe(401);
    expect(wrong.json.code).toBe('INVALID_CREDENTIALS');
    const [kept] = await getDb().select().from(guidePayoutAccounts).where(eq(guidePayoutAccounts.guideId, guide.id));
    expect([kept!.bankCode, kept!.accountNumber]).toEqual(['808', '5566778899']);

    const put = await server.request('/api/v1/payout-account', { method: 'PUT', token: guideAuth.token, json: { bankCode: '012', accountNumber: '1122-3344-55', password: PASSWORD } });
    expect(put.status).toBe(200);
    expect(put.json.data.account).toMatchObject({ bankCode: '012', accountNumberMasked: '••••••4455' });
    expect(put.text).not.toContain('1122334455');

    const { token } = await loginAs(traveler);
    expect((await server.request('/api/v1/payout-account', { token })).status).toBe(403);
    const travelerPut = await server.request('/api/v1/payout-account', { method: 'PUT', token, json: { bankCode: '012', accountNumber: '1122334455', password: PASSWORD } });
    expect(travelerPut.status).toBe(403);
  });

  it('the /me bank account form without JS: a refusal keeps what was typed (not the password); saved: 303 back to the tab, masked', async () => {
    resetRateLimits();
    const invalid = await form(guideAuth.cookie, { bankCode: '12', accountNumber: '7788990011', password: PASSWORD });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain('The bank code is 3 digits');
    expect(invalid.text).toContain('value="7788990011"');

    const wrong = await form(guideAuth.cookie, { bankCode: '700', accountNumber: '7788990011', password: 'typed-secret' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Wrong password; the payout account was not changed');
    expect(wrong.text).toContain('value="7788990011"');
    expect(wrong.text).not.toContain('typed-secret');
    const [kept] = await getDb().select().from(guidePayoutAccounts).where(eq(guidePayoutAccounts.guideId, guide.id));
    expect(kept!.accountNumber).toBe('1122334455');

    const saved = await form(guideAuth.cookie, { bankCode: '700', accountNumber: '7788990011', password: PASSWORD });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('/me?tab=earnings');
    const page = await server.request('/me?tab=earnings', { cookie: guideAuth.cookie, headers: { 'accept-language': 'en' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('••••••0011');
    expect(page.text).not.toContain('7788990011');
    expect(page.text).toContain('On the way (payout #');
  });
});
