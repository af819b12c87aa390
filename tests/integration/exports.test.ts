import { parse } from 'csv-parse/sync';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs } from '~db/schema';
import { createGuide, createOrder, createReview, createTraveler, createUser } from '~server/seed/factories';
import { hashPassword } from '~/services/accounts/passwords.server';
import type { UserRow } from '~/services/accounts/users.server';
import { loginAs } from '../support/api';
import { useTestServer } from '../support/http-server';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Issue 22, exports: the CSV files of users, orders, reviews and the audit log over real HTTP — refused to all but
 * admins; a UTF-8 BOM; formula cells written inert; Chinese text round-trips (parsed back with csv-parse); the list
 * filters apply; the headers follow the admin's language. Also the admin filters of GET /api/v1/orders, and the
 * audit rows of admin logins and failed admin logins.
 */
useTestDatabase();
const server = useTestServer();

type Login = Awaited<ReturnType<typeof loginAs>>;
let admin: UserRow;
let adminLogin: Login;
let traveler: UserRow;
let guide: UserRow;
let otherGuide: UserRow;
const FORMULA = '=HYPERLINK("http://x","y")';

beforeAll(async () => {
  admin = await createUser({ type: 'admin', name: '匯出管理員' });
  adminLogin = await loginAs(admin);
  traveler = await createTraveler({ name: FORMULA });
  guide = await createGuide({ name: '王小明導遊' });
  otherGuide = await createGuide({ name: '+陳大文' });
});

/** The raw bytes (fetch's text() would drop the BOM) and the parsed records. */
async function download(path: string, init: { cookie?: string; token?: string; headers?: Record<string, string> } = {}) {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set('cookie', init.cookie);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  const res = await fetch(server.baseUrl + path, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  const records: string[][] = res.ok ? parse(bytes, { bom: true, relax_column_count: false }) : [];
  return { res, bytes, records, header: records[0] ?? [], rows: records.slice(1) };
}
const column = (d: { header: string[]; rows: string[][] }, name: string) => d.rows.map((r) => r[d.header.indexOf(name)]);

const EXPORTS = ['/api/v1/users/export.csv', '/api/v1/orders/export.csv', '/api/v1/reviews/export.csv', '/api/v1/admin/logs/export.csv'];

describe(`CSV exports (${testDriver})`, () => {
  it('are refused to anonymous callers, travelers and guides', async () => {
    const travelerLogin = await loginAs(traveler);
    const guideLogin = await loginAs(guide);
    for (const path of EXPORTS) {
      const anonymous = await server.request(path);
      expect(anonymous.status, path).toBe(401);
      expect(anonymous.json.code).toBe('UNAUTHORIZED');
      expect((await server.request(path, { token: travelerLogin.token })).status, path).toBe(403);
      expect((await server.request(path, { cookie: travelerLogin.cookie })).status, path).toBe(403);
      expect((await server.request(path, { token: guideLogin.token })).status, path).toBe(403);
      const ok = await download(path, { token: adminLogin.token });
      expect(ok.res.status, path).toBe(200);
      expect(ok.res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(ok.res.headers.get('content-disposition')).toMatch(/^attachment; filename="[a-z]+-\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(ok.res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('writes a UTF-8 BOM, a formula name inert, and Chinese names that read back the same', async () => {
    const d = await download(`/api/v1/users/export.csv?lng=zh-TW`, { cookie: adminLogin.cookie });
    expect([...d.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(d.header.slice(0, 3)).toEqual(['編號', '姓名', '電子郵件']);
    const names = column(d, '姓名');
    // The cell starts with a single quote: a spreadsheet shows the text and runs nothing.
    expect(names).toContain(`'${FORMULA}`);
    expect(names).not.toContain(FORMULA);
    expect(names.every((n) => !/^[=+\-@\t\r]/.test(n!))).toBe(true);
    expect(names).toContain('王小明導遊');
    expect(names).toContain(`'+陳大文`);
    expect(names).toContain('匯出管理員');
    // The file is the rows themselves, CRLF ends, the quotes of the formula doubled inside a quoted cell.
    expect(d.bytes.toString('utf8')).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(d.bytes.toString('utf8')).toContain('\r\n');
  });

  it('names its columns in the admin’s language', async () => {
    const en = await download('/api/v1/orders/export.csv', { token: adminLogin.token, headers: { 'accept-language': 'en' } });
    expect(en.header.slice(0, 3)).toEqual(['Order number', 'Status', 'Tour date']);
    const ja = await download('/api/v1/orders/export.csv?lng=ja', { cookie: adminLogin.cookie });
    expect(ja.header[0]).toBe('予約番号');
    expect(ja.header[2]).toBe('ツアー日');
    const zh = await download('/api/v1/orders/export.csv?lng=zh-TW', { cookie: adminLogin.cookie });
    expect(zh.header[2]).toBe('行程日期');
  });

  it('writes what the admin sees (issue 35): labels for status, time slot, city, role, account state and yes/no, in the admin’s language; ids stay numbers', async () => {
    const person = await createTraveler({ name: '標籤旅客', city: 'new_taipei', isEmailVerified: true, isIdVerified: false });
    const booked = await createOrder({ travelerId: person.id, guideId: guide.id, date: '2035-07-01', timeSlot: 'morning', status: 'pending' });
    const row = (d: { header: string[]; rows: string[][] }, idColumn: string, id: number) => {
      const r = d.rows.find((cells) => cells[d.header.indexOf(idColumn)] === String(id))!;
      return Object.fromEntries(d.header.map((h, i) => [h, r[i]]));
    };
    const usersZh = row(await download(`/api/v1/users/export.csv?lng=zh-TW&search=${encodeURIComponent('標籤旅客')}`, { cookie: adminLogin.cookie }), '編號', person.id);
    expect(usersZh).toMatchObject({ 編號: String(person.id), 角色: '旅客', 狀態: '啟用', 電子郵件已驗證: '是', 身分已驗證: '否', 城市: '新北' });
    const usersEn = await download(`/api/v1/users/export.csv?lng=en&search=${encodeURIComponent('標籤旅客')}`, { cookie: adminLogin.cookie });
    // id, name, email, role, status, e-mail verified, ID verified, city
    expect(usersEn.rows[0]!.slice(0, 8)).toEqual([String(person.id), '標籤旅客', person.email, 'Traveler', 'Active', 'Yes', 'No', 'New Taipei']);

    const ordersZh = row(await download(`/api/v1/orders/export.csv?lng=zh-TW&id=${booked.id}`, { cookie: adminLogin.cookie }), '訂單編號', booked.id);
    expect(ordersZh).toMatchObject({ 狀態: '待確認', 行程日期: '2035-07-01', 時段: '上午 09:00–12:00', 旅客編號: String(person.id), 導遊編號: String(guide.id) });
    const ordersEn = row(await download(`/api/v1/orders/export.csv?lng=en&id=${booked.id}`, { cookie: adminLogin.cookie }), 'Order number', booked.id);
    expect(ordersEn).toMatchObject({ Status: 'Pending', 'Tour date': '2035-07-01', 'Time slot': 'Morning 09:00–12:00' });
    const ordersJa = row(await download(`/api/v1/orders/export.csv?lng=ja&id=${booked.id}`, { cookie: adminLogin.cookie }), '予約番号', booked.id);
    expect(ordersJa['ツアー日']).toBe('2035-07-01');
    expect(Object.values(ordersJa)).toContain('確認待ち');

    // No raw code is left in the labelled columns.
    for (const v of [usersZh['角色'], usersZh['狀態'], usersZh['城市'], ordersZh['狀態'], ordersZh['時段']]) expect(v).not.toMatch(/^[a-z_]+$/);
  });

  it('applies the list filters: users by role and search, orders by status, dates and party, reviews by keyword, logs by action', async () => {
    const guides = await download(`/api/v1/users/export.csv?type=guide&search=${encodeURIComponent('王小明')}`, { token: adminLogin.token });
    expect(column(guides, '編號')).toEqual([String(guide.id)]);

    const a = await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2033-05-01', status: 'confirmed' });
    const b = await createOrder({ travelerId: traveler.id, guideId: otherGuide.id, date: '2033-05-10' });
    await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2033-06-01' });
    const may = 'tourFrom=2033-05-01&tourTo=2033-05-31';
    const ids = async (q: string) => column(await download(`/api/v1/orders/export.csv?${q}`, { token: adminLogin.token }), '訂單編號');
    expect(await ids(may)).toEqual([String(b.id), String(a.id)]);
    expect(await ids(`${may}&status=confirmed`)).toEqual([String(a.id)]);
    expect(await ids(`${may}&guide=${encodeURIComponent('王小明')}`)).toEqual([String(a.id)]);
    expect(await ids(`id=${b.id}`)).toEqual([String(b.id)]);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(new Date());
    expect(await ids(`${may}&createdFrom=${today}&createdTo=${today}`)).toEqual([String(b.id), String(a.id)]);
    expect(await ids(`${may}&createdTo=2020-01-01`)).toEqual([]);
    // A bad filter is a 400 naming it, as on GET /api/v1/orders.
    const bad = await server.request('/api/v1/orders/export.csv?tourFrom=soon', { token: adminLogin.token });
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toHaveProperty('tourFrom');

    const done = await createOrder({ travelerId: traveler.id, guideId: guide.id, status: 'completed', travelerCompleted: true, guideCompleted: true });
    await createReview({ orderId: done.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler', comment: '夜市導覽非常精彩' });
    await createReview({ orderId: done.id, reviewerId: guide.id, revieweeId: traveler.id, role: 'guide', comment: '準時的旅客' });
    const reviews = await download(`/api/v1/reviews/export.csv?keyword=${encodeURIComponent('夜市')}`, { token: adminLogin.token });
    expect(column(reviews, '內容')).toEqual(['夜市導覽非常精彩']);

    await getDb().insert(auditLogs).values([
      { actorId: admin.id, action: 'user.block', targetType: 'user', targetId: String(traveler.id), details: { name: FORMULA } },
      { actorId: admin.id, action: 'order.refund', targetType: 'order', targetId: String(a.id) },
    ]);
    const logs = await download(`/api/v1/admin/logs/export.csv?action=user.block&actorId=${admin.id}`, { token: adminLogin.token });
    expect(column(logs, '動作')).toEqual(['停權帳號']);
    expect(column(logs, '對象類型')).toEqual(['使用者']);
    const logsEn = await download(`/api/v1/admin/logs/export.csv?action=user.block&actor=${encodeURIComponent('匯出管理員')}&lng=en`, { token: adminLogin.token });
    expect(column(logsEn, 'Action')).toEqual(['Account suspended']);
    expect(column(logs, '操作者')).toEqual(['匯出管理員']);
    expect(JSON.parse(column(logs, '詳細內容')[0]!)).toEqual({ name: FORMULA });
  });

  it('records who exported what, with the filters, when the file is asked for; a refused export records nothing (issue 31)', async () => {
    const exportRows = () =>
      getDb()
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.actorId, admin.id)))
        .orderBy(auditLogs.id)
        .then((rows) => rows.filter((r) => r.action.startsWith('export.')));
    const before = (await exportRows()).length;
    const travelerLogin = await loginAs(traveler);
    for (const path of EXPORTS) expect((await server.request(path, { token: travelerLogin.token })).status).toBe(403);
    expect((await server.request('/api/v1/orders/export.csv?tourFrom=soon', { token: adminLogin.token })).status).toBe(400);
    expect(await exportRows()).toHaveLength(before);

    await download(`/api/v1/users/export.csv?type=guide&search=${encodeURIComponent('王小明')}`, { token: adminLogin.token });
    await download('/api/v1/users/export.csv?archived=only', { cookie: adminLogin.cookie });
    await download('/api/v1/orders/export.csv?status=confirmed&tourFrom=2033-05-01&tourTo=2033-05-31', { token: adminLogin.token });
    await download(`/api/v1/reviews/export.csv?keyword=${encodeURIComponent('夜市')}`, { token: adminLogin.token });
    await download(`/api/v1/admin/logs/export.csv?action=user.&actorId=${admin.id}`, { token: adminLogin.token });
    const rows = (await exportRows()).slice(before);
    expect(rows.map((r) => [r.action, r.actorId, r.targetType, r.details])).toEqual([
      ['export.users', admin.id, null, { filters: { type: 'guide', search: '王小明' } }],
      ['export.users', admin.id, null, { filters: { archived: 'only' } }],
      ['export.orders', admin.id, null, { filters: { status: 'confirmed', tourFrom: '2033-05-01', tourTo: '2033-05-31' } }],
      ['export.reviews', admin.id, null, { filters: { keyword: '夜市' } }],
      ['export.logs', admin.id, null, { filters: { action: 'user.', actorId: admin.id } }],
    ]);
    // The audit log shows them like any entry.
    const logs = await download('/api/v1/admin/logs/export.csv?action=export.', { token: adminLogin.token });
    expect(column(logs, '動作').slice(0, 2)).toEqual(['匯出操作紀錄', '匯出操作紀錄']);
  });

  it('reads every row across pages of 1,000 (keyset), once each', async () => {
    const db = getDb();
    const many = await createTraveler({ name: '大量旅客' });
    const { orders } = await import('~db/schema');
    const rows = Array.from({ length: 2100 }, (_, i) => ({
      travelerId: many.id,
      guideId: otherGuide.id,
      date: `2040-01-01`,
      timeSlot: 'morning' as const,
      numberOfPeople: 1,
      totalPrice: 1000,
      status: 'cancelled' as const,
      note: String(i),
    }));
    for (let i = 0; i < rows.length; i += 500) await db.insert(orders).values(rows.slice(i, i + 500));
    const d = await download(`/api/v1/orders/export.csv?traveler=${many.id}`, { token: adminLogin.token });
    const ids = column(d, '訂單編號').map(Number);
    expect(ids).toHaveLength(2100);
    expect(new Set(ids).size).toBe(2100);
    expect([...ids].sort((x, y) => y - x)).toEqual(ids);
  });

  it('puts an Export CSV link carrying the filters on each admin list', async () => {
    const pages: [string, string][] = [
      ['/admin/users?type=guide&search=王', '/api/v1/users/export.csv?type=guide&amp;search=%E7%8E%8B'],
      ['/admin/users/archived', '/api/v1/users/export.csv?archived=only'],
      ['/admin/orders?status=pending&tourFrom=2033-05-01&page=2', '/api/v1/orders/export.csv?status=pending&amp;tourFrom=2033-05-01&amp;lng='],
      ['/admin/reviews?keyword=夜市', '/api/v1/reviews/export.csv?keyword=%E5%A4%9C%E5%B8%82'],
      ['/admin/logs?action=user.block', '/api/v1/admin/logs/export.csv?action=user.block'],
    ];
    for (const [page, link] of pages) {
      const res = await server.request(encodeURI(page), { cookie: adminLogin.cookie });
      expect(res.status, page).toBe(200);
      expect(res.text, page).toContain(`href="${link}`);
    }
  });
});

describe(`GET /api/v1/orders filters for admins (${testDriver})`, () => {
  it('filters as /admin/orders for admins; a traveler’s own view ignores the admin filters', async () => {
    const t2 = await createTraveler({ name: '林旅客' });
    const g2 = await createGuide({ name: '花蓮導遊' });
    const a = await createOrder({ travelerId: t2.id, guideId: g2.id, date: '2034-02-01', status: 'confirmed' });
    const b = await createOrder({ travelerId: t2.id, guideId: guide.id, date: '2034-02-20' });
    const gone = await createOrder({ travelerId: t2.id, guideId: g2.id, date: '2034-02-21', deletedAt: new Date() });
    const feb = 'tourFrom=2034-02-01&tourTo=2034-02-28';
    const ids = async (q: string, token = adminLogin.token) => {
      const res = await server.request(`/api/v1/orders?${q}`, { token });
      expect(res.status, q).toBe(200);
      return (res.json.data.orders as { id: number }[]).map((o) => o.id);
    };
    expect(await ids(feb)).toEqual([b.id, a.id]);
    expect(await ids(`${feb}&status=confirmed`)).toEqual([a.id]);
    expect(await ids(`${feb}&guide=${encodeURIComponent('花蓮')}`)).toEqual([a.id]);
    expect(await ids(`${feb}&traveler=${t2.id}`)).toEqual([b.id, a.id]);
    expect(await ids(`id=${b.id}`)).toEqual([b.id]);
    expect(await ids(`${feb}&deleted=only`)).toEqual([gone.id]);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(new Date());
    expect(await ids(`${feb}&createdFrom=${today}&createdTo=${today}`)).toEqual([b.id, a.id]);
    expect(await ids(`${feb}&createdFrom=2099-01-01`)).toEqual([]);
    const bad = await server.request('/api/v1/orders?createdFrom=2034-13-45', { token: adminLogin.token });
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toHaveProperty('createdFrom');
    // A range typed backwards is a 400 naming its end, in the caller's language (issue 35: it silently found nothing).
    const reversed = await server.request('/api/v1/orders?tourFrom=2034-02-28&tourTo=2034-02-01', { token: adminLogin.token, headers: { 'accept-language': 'en' } });
    expect(reversed.status).toBe(400);
    expect(Object.keys(reversed.json.errors)).toEqual(['tourTo']);
    expect(JSON.stringify(reversed.json.errors.tourTo)).toMatch(/after/);
    const reversedCsv = await server.request('/api/v1/orders/export.csv?createdFrom=2034-02-28&createdTo=2034-02-01', { token: adminLogin.token });
    expect(reversedCsv.status).toBe(400);
    expect(reversedCsv.json.errors).toHaveProperty('createdTo');

    // The traveler sees their own orders, the admin filters change nothing for them.
    const own = (await loginAs(t2)).token;
    expect(await ids('', own)).toEqual([b.id, a.id]);
    expect(await ids(`guide=${encodeURIComponent('花蓮')}&deleted=only`, own)).toEqual([b.id, a.id]);
    expect(await ids('status=confirmed', own)).toEqual([a.id]);
  });
});

describe(`admin logins in the audit log (${testDriver})`, () => {
  const PASSWORD = 'Correct-Horse-9';
  const entries = (userId: number) =>
    getDb()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.targetType, 'user'), eq(auditLogs.targetId, String(userId))))
      .orderBy(auditLogs.id);

  it('records an admin’s login and failed login with the address; the failure answers like any other', async () => {
    const boss = await createUser({ type: 'admin', name: '登入管理員', passwordHash: await hashPassword(PASSWORD) });
    const plain = await createTraveler({ name: '一般旅客', passwordHash: await hashPassword(PASSWORD) });

    const wrong = await server.request('/api/v1/auth/login', { json: { email: boss.email, password: 'wrong-password-1' }, headers: { 'accept-language': 'en' } });
    const unknown = await server.request('/api/v1/auth/login', { json: { email: 'nobody-here@example.test', password: 'wrong-password-1' }, headers: { 'accept-language': 'en' } });
    const travelerWrong = await server.request('/api/v1/auth/login', { json: { email: plain.email, password: 'wrong-password-1' }, headers: { 'accept-language': 'en' } });
    expect(wrong.status).toBe(401);
    // Nothing tells the caller this was an admin account.
    // Every answer has its own requestId; the rest must be identical.
    const sameness = ({ requestId: _id, ...rest }: Record<string, unknown>) => rest;
    expect(sameness(wrong.json)).toEqual(sameness(unknown.json));
    expect(sameness(wrong.json)).toEqual(sameness(travelerWrong.json));
    expect([...wrong.headers.keys()].sort()).toEqual([...travelerWrong.headers.keys()].sort());

    const ok = await server.request('/api/v1/auth/login', { json: { email: boss.email, password: PASSWORD } });
    expect(ok.status).toBe(200);
    // The web form too.
    const web = await server.request('/login', {
      method: 'POST',
      origin: server.baseUrl,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: boss.email, password: PASSWORD }).toString(),
    });
    expect(web.status).toBe(302);

    const rows = await entries(boss.id);
    expect(rows.map((r) => [r.action, r.actorId, (r.details as { via?: string }).via])).toEqual([
      ['user.login_failed', null, 'api'],
      ['user.login', boss.id, 'api'],
      ['user.login', boss.id, 'web'],
    ]);
    for (const r of rows) expect((r.details as { ip?: string }).ip).toMatch(/127\.0\.0\.1|::1|::ffff:127\.0\.0\.1/);
    expect(rows[0]!.details).toMatchObject({ reason: 'password' });
    // A traveler's logins are not audited.
    await server.request('/api/v1/auth/login', { json: { email: plain.email, password: PASSWORD } });
    expect(await entries(plain.id)).toEqual([]);

    // The audit log shows them, and its export carries the address.
    const logs = await download(`/api/v1/admin/logs/export.csv?targetType=user&targetId=${boss.id}`, { token: adminLogin.token });
    expect(column(logs, '動作')).toEqual(['管理員登入', '管理員登入', '管理員登入失敗']);
    expect(column(logs, '來源位址').every((ip) => /127\.0\.0\.1|::1/.test(ip!))).toBe(true);
  });
});
