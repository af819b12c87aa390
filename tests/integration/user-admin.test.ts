import { matchRoutes } from '@remix-run/react';
import { and, count, eq, isNull } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, sessions, users } from '~db/schema';
import { login } from '~/services/accounts/accounts.server';
import { AppError } from '~/services/platform/errors.server';
import { hashPassword } from '~/services/accounts/passwords.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { getActiveSession } from '~/services/accounts/sessions.server';
import {
  archiveUser,
  blockUser,
  listArchivedUsers,
  listUsers,
  restoreUser,
  unblockUser,
} from '~/services/accounts/user-admin.server';
import { changeUserRole } from '~/services/admin/admin-user-detail.server';
import type { UserRow } from '~/services/accounts/users.server';
import { loginAs } from '../support/api';
import { createGuide, createTraveler, createUser } from '~server/seed/factories';
import { useTestServer, type TestResponse } from '../support/http-server';
import { testDriver, useTestDatabase } from '../support/test-database';

/** The admin user API (list, archived list, archive, restore, block, unblock) over real HTTP, real SQL. */
useTestDatabase();
const server = useTestServer();

const PASSWORD = 'secret1';
const meta = { ip: '198.51.100.7' };

const listRoute = '/api/v1/users';
const archivedRoute = '/api/v1/users/archived/list';
const blockRoute = 'block' as const;
const unblockRoute = 'unblock' as const;
const restoreRoute = 'restore' as const;

/** GET a list route with these search params, as `who`. */
function getList(route: typeof listRoute | typeof archivedRoute, params: Record<string, string | number>, token?: string) {
  const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  return server.request(`${route}?${qs}`, { token });
}

function moderateVia(route: typeof blockRoute | typeof unblockRoute | typeof restoreRoute, id: number | string, token?: string, headers?: Record<string, string>) {
  const method = route === restoreRoute ? 'PUT' : 'POST';
  return server.request(`/api/v1/users/${id}/${route}`, { method, token, headers });
}

/** POST /api/v1/auth/logout: the cheapest way to ask "does this token still work?". */
function logoutWith(token: string) {
  return server.request('/api/v1/auth/logout', { method: 'POST', token });
}

/** An API answer as a client reads it: this status, a JSON body, and never stored by a cache (private data). */
function expectApi(res: TestResponse, status: number, label = '') {
  expect(res.status, `${label} ${res.text}`).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.json?.success).toBe(status < 400);
}

async function auditRows(targetId: number, action?: string) {
  return getDb()
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.targetId, String(targetId)), action ? eq(auditLogs.action, action) : undefined))
    .orderBy(auditLogs.id);
}

async function liveSessionCount(userId: number) {
  const [row] = await getDb()
    .select({ n: count() })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  return row!.n;
}

describe(`admin moderation of accounts (${testDriver})`, () => {
  let admin: UserRow;
  let adminToken: string;
  let traveler: UserRow;
  let travelerToken: string;
  let guide: UserRow;
  let guideToken: string;

  beforeAll(async () => {
    admin = await createUser({ type: 'admin', name: 'Root Admin', passwordHash: await hashPassword(PASSWORD) });
    adminToken = (await loginAs(admin)).token;
    traveler = await createTraveler({ name: 'Plain Traveler' });
    travelerToken = (await loginAs(traveler)).token;
    guide = await createGuide({ name: 'Plain Guide' });
    guideToken = (await loginAs(guide)).token;
  });

  beforeEach(() => resetRateLimits());

  describe('access', () => {
    const calls = [
      ['GET /api/v1/users', (token: string | undefined) => getList(listRoute, {}, token)],
      ['GET /api/v1/users/archived/list', (token: string | undefined) => getList(archivedRoute, {}, token)],
      ['PUT /api/v1/users/:id/restore', (token: string | undefined, id: number) => moderateVia(restoreRoute, id, token)],
      ['POST /api/v1/users/:id/block', (token: string | undefined, id: number) => moderateVia(blockRoute, id, token)],
      ['POST /api/v1/users/:id/unblock', (token: string | undefined, id: number) => moderateVia(unblockRoute, id, token)],
    ] as const;

    it.each(calls)('%s: anonymous 401, traveler and guide 403, admin 200', async (_name, call) => {
      const victim = await createTraveler({ blockedAt: new Date(), status: 'suspended', deletedAt: new Date() });
      const anonymous = await call(undefined, victim.id);
      expectApi(anonymous, 401);
      expect(anonymous.json).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
      for (const token of [travelerToken, guideToken]) {
        const res = await call(token, victim.id);
        expectApi(res, 403);
        expect(res.json).toMatchObject({ success: false, code: 'FORBIDDEN' });
      }
      // Nobody but the admin changed anything.
      const [row] = await getDb().select().from(users).where(eq(users.id, victim.id));
      expect(row).toEqual(victim);
      expect(await auditRows(victim.id)).toHaveLength(0);
      const ok = await call(adminToken, victim.id);
      expectApi(ok, 200);
      expect(ok.json.success).toBe(true);
    });

    it('the service functions refuse a non-admin actor too', async () => {
      const victim = await createTraveler();
      for (const fn of [archiveUser, restoreUser, blockUser, unblockUser]) {
        for (const actor of [traveler, guide]) {
          await expect(fn(actor, victim.id)).rejects.toMatchObject({ code: 'FORBIDDEN' });
        }
      }
      const [row] = await getDb().select().from(users).where(eq(users.id, victim.id));
      expect(row!.blockedAt).toBeNull();
      expect(row!.deletedAt).toBeNull();
      expect(await auditRows(victim.id)).toHaveLength(0);
    });
  });

  describe('list', () => {
    const ids: number[] = [];

    beforeAll(async () => {
      // 45 members of one group, registered one day apart (newest = member 45).
      for (let i = 1; i <= 45; i++) {
        const u = await createTraveler({
          name: `Member ${String(i).padStart(2, '0')}`,
          email: `member${String(i).padStart(2, '0')}@bulk-group.test`,
          registerDate: new Date(Date.UTC(2024, 0, i)),
        });
        ids.push(u.id);
      }
    });

    it('pages 45 matching users by 20: 3 pages, hasNext/hasPrev right, newest first by default', async () => {
      const first = await getList(listRoute, { search: 'bulk-group', limit: 20 }, adminToken);
      expectApi(first, 200);
      expect(first.json.data.pagination).toEqual({ page: 1, limit: 20, total: 45, totalPages: 3, hasNext: true, hasPrev: false });
      expect(first.json.data.users).toHaveLength(20);
      expect(first.json.data.users[0].name).toBe('Member 45');
      expect(first.json.data.users[19].name).toBe('Member 26');
      expect(first.json.data.sorting).toEqual({ sortBy: 'registerDate', sortOrder: 'desc' });
      expect(first.json.data.filters).toEqual({ type: null, status: null, search: 'bulk-group' });

      const second = await getList(listRoute, { search: 'bulk-group', page: 2 }, adminToken);
      expect(second.json.data.pagination).toMatchObject({ page: 2, hasNext: true, hasPrev: true });
      expect(second.json.data.users[0].name).toBe('Member 25');

      const last = await getList(listRoute, { search: 'bulk-group', limit: 20, page: 3 }, adminToken);
      expect(last.json.data.pagination).toEqual({ page: 3, limit: 20, total: 45, totalPages: 3, hasNext: false, hasPrev: true });
      expect(last.json.data.users.map((u: { name: string }) => u.name)).toEqual([
        'Member 05',
        'Member 04',
        'Member 03',
        'Member 02',
        'Member 01',
      ]);

      // Past the end: an empty page, not an error.
      const beyond = await getList(listRoute, { search: 'bulk-group', page: 4 }, adminToken);
      expectApi(beyond, 200);
      expect(beyond.json.data.users).toEqual([]);
      expect(beyond.json.data.pagination).toMatchObject({ page: 4, total: 45, hasNext: false, hasPrev: true });
    });

    it('defaults to 20 a page and counts every non-archived user', async () => {
      const res = await getList(listRoute, { _t: Date.now(), r: '0.123' }, adminToken);
      expectApi(res, 200);
      const [all] = await getDb().select({ n: count() }).from(users).where(isNull(users.deletedAt));
      expect(all!.n).toBeGreaterThan(45);
      expect(res.json.data.pagination).toMatchObject({ page: 1, limit: 20, total: all!.n, totalPages: Math.ceil(all!.n / 20) });
      expect(res.json.data.users).toHaveLength(20);
      // The public shape: never the password hash.
      expect(res.json.data.users[0]).not.toHaveProperty('passwordHash');
      expect(res.json.data.users[0]).toHaveProperty('isBlocked');
    });

    it('clamps a limit above 100 to 100 (documented in app/schemas/user-admin.ts)', async () => {
      const res = await getList(listRoute, { limit: 500 }, adminToken);
      expectApi(res, 200);
      expect(res.json.data.pagination.limit).toBe(100);
      expect(res.json.data.users.length).toBeLessThanOrEqual(100);
      expect(res.json.data.users.length).toBe(Math.min(100, res.json.data.pagination.total));
    });

    it.each([
      ['limit', { limit: 0 }],
      ['limit', { limit: 'abc' }],
      ['limit', { limit: 2.5 }],
      ['page', { page: 0 }],
      ['page', { page: -1 }],
      ['sortBy', { sortBy: 'password_hash' }],
      ['sortOrder', { sortOrder: 'sideways' }],
      ['type', { type: 'superuser' }],
    ] as const)('a bad %s is 400 VALIDATION_ERROR naming the field (%o)', async (field, params) => {
      const res = await getList(listRoute, params, adminToken);
      expectApi(res, 400);
      expect(res.json.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(res.json.errors)).toEqual([field]);
    });

    it('empty parameters (a plain HTML form) count as absent', async () => {
      const res = await getList(listRoute, { type: '', search: '', sortBy: '', page: '', limit: '' }, adminToken);
      expectApi(res, 200);
      expect(res.json.data.filters).toEqual({ type: null, status: null, search: null });
      expect(res.json.data.sorting).toEqual({ sortBy: 'registerDate', sortOrder: 'desc' });
      expect(res.json.data.pagination).toMatchObject({ page: 1, limit: 20 });
    });

    it('sorts by name ascending and descending, case-insensitively', async () => {
      await createTraveler({ name: 'charlie Sorter', email: 'c@sorting-group.test' });
      await createTraveler({ name: 'Alice Sorter', email: 'a@sorting-group.test' });
      await createTraveler({ name: 'bob Sorter', email: 'b@sorting-group.test' });
      await createTraveler({ name: 'Dora Sorter', email: 'd@sorting-group.test' });
      const asc = await getList(listRoute, { search: 'sorting-group', sortBy: 'name', sortOrder: 'asc' }, adminToken);
      expect(asc.json.data.users.map((u: { name: string }) => u.name)).toEqual([
        'Alice Sorter',
        'bob Sorter',
        'charlie Sorter',
        'Dora Sorter',
      ]);
      expect(asc.json.data.sorting).toEqual({ sortBy: 'name', sortOrder: 'asc' });
      const desc = await getList(listRoute, { search: 'sorting-group', sortBy: 'name' }, adminToken);
      expect(desc.json.data.users.map((u: { name: string }) => u.name)).toEqual([
        'Dora Sorter',
        'charlie Sorter',
        'bob Sorter',
        'Alice Sorter',
      ]);
    });

    it('sorts by last login with never-logged-in people last, and by id', async () => {
      const never = await createTraveler({ email: 'never@login-group.test' });
      const old = await createTraveler({ email: 'old@login-group.test', lastLogin: new Date('2025-01-01T00:00:00Z') });
      const recent = await createTraveler({ email: 'recent@login-group.test', lastLogin: new Date('2025-06-01T00:00:00Z') });
      const byLogin = async (sortOrder: string) =>
        (await getList(listRoute, { search: 'login-group', sortBy: 'lastLogin', sortOrder }, adminToken)).json.data.users.map(
          (u: { id: number }) => u.id,
        );
      expect(await byLogin('desc')).toEqual([recent.id, old.id, never.id]);
      expect(await byLogin('asc')).toEqual([old.id, recent.id, never.id]);
      const byId = await getList(listRoute, { search: 'login-group', sortBy: 'id', sortOrder: 'asc' }, adminToken);
      expect(byId.json.data.users.map((u: { id: number }) => u.id)).toEqual([never.id, old.id, recent.id]);
    });

    it('filters by type', async () => {
      const res = await getList(listRoute, { type: 'guide', limit: 100 }, adminToken);
      expectApi(res, 200);
      const [guides] = await getDb()
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.type, 'guide'), isNull(users.deletedAt)));
      expect(res.json.data.pagination.total).toBe(guides!.n);
      expect(res.json.data.users.length).toBeGreaterThan(0);
      expect(res.json.data.users.every((u: { type: string }) => u.type === 'guide')).toBe(true);
      expect(res.json.data.users.map((u: { id: number }) => u.id)).toContain(guide.id);
      expect(res.json.data.filters).toEqual({ type: 'guide', status: null, search: null });

      const admins = await getList(listRoute, { type: 'admin' }, adminToken);
      expect(admins.json.data.users.map((u: { id: number }) => u.id)).toContain(admin.id);
      expect(admins.json.data.users.every((u: { type: string }) => u.type === 'admin')).toBe(true);
    });

    it('searches part of the email or the name, case-insensitively', async () => {
      const mixed = await createTraveler({ name: '林小明', email: 'Ming.Lin.Case@Example-Search.test' });
      const byEmail = await getList(listRoute, { search: 'lin.CASE@example' }, adminToken);
      expect(byEmail.json.data.users.map((u: { id: number }) => u.id)).toEqual([mixed.id]);
      const byName = await getList(listRoute, { search: '小明' }, adminToken);
      expect(byName.json.data.users.map((u: { id: number }) => u.id)).toEqual([mixed.id]);
      const none = await getList(listRoute, { search: 'nobody-has-this' }, adminToken);
      expect(none.json.data.users).toEqual([]);
      expect(none.json.data.pagination).toMatchObject({ total: 0, totalPages: 1, hasNext: false, hasPrev: false });
    });

    it('matches %, _ and \\ in a search literally', async () => {
      const percent = await createTraveler({ email: 'deal100%off@wild.test' });
      await createTraveler({ email: 'deal100xoff@wild.test' });
      const underscore = await createTraveler({ email: 'snake_case@wild.test' });
      await createTraveler({ email: 'snakeXcase@wild.test' });
      const backslash = await createTraveler({ name: 'Back\\Slash', email: 'back1@wild.test' });
      await createTraveler({ name: 'BackSlash', email: 'back2@wild.test' });
      const ids = async (search: string) =>
        (await getList(listRoute, { search }, adminToken)).json.data.users.map((u: { id: number }) => u.id);
      expect(await ids('100%off')).toEqual([percent.id]);
      expect(await ids('%')).toEqual([percent.id]);
      expect(await ids('snake_case')).toEqual([underscore.id]);
      expect(await ids('back\\s')).toEqual([backslash.id]);
    });

    it('the service fills in the defaults when called directly', async () => {
      const result = await listUsers({ search: 'bulk-group' });
      expect(result.pagination).toMatchObject({ page: 1, limit: 20, total: 45 });
      await expect(listUsers({ limit: -5 })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    });
  });

  describe('archive and restore', () => {
    it('archived users leave the list, appear in archived/list, lose their sessions; restore brings them back', async () => {
      const target = await createTraveler({ email: 'archive-me@moderation.test', passwordHash: await hashPassword(PASSWORD) });
      const other = await createTraveler({ email: 'keep-me@moderation.test' });
      const session = await loginAs(target);

      const archived = await archiveUser(admin, target.id);
      expect(archived.deletedAt).toBeInstanceOf(Date);

      const list = await getList(listRoute, { search: 'moderation.test' }, adminToken);
      expect(list.json.data.users.map((u: { id: number }) => u.id)).toEqual([other.id]);
      const archivedList = await getList(archivedRoute, { search: 'moderation.test' }, adminToken);
      expectApi(archivedList, 200);
      expect(archivedList.json.data.users.map((u: { id: number }) => u.id)).toEqual([target.id]);
      expect(archivedList.json.data.users[0]).toMatchObject({ isArchived: true, archivedAt: archived.deletedAt!.toISOString() });
      expect(archivedList.json.data.pagination).toEqual({ page: 1, limit: 20, total: 1, totalPages: 1, hasNext: false, hasPrev: false });
      expect((await listArchivedUsers({})).users.every((u) => u.isArchived)).toBe(true);

      // Every session ended: the bearer token and the cookie are dead, and login is refused.
      expect(await liveSessionCount(target.id)).toBe(0);
      expectApi(await logoutWith(session.token), 401);
      expect(await getActiveSession(session.webSessionId)).toBeUndefined();
      await expect(login({ email: target.email, password: PASSWORD }, 'api', meta)).rejects.toMatchObject({
        code: 'ACCOUNT_BLOCKED',
      });

      const restored = await moderateVia(restoreRoute, target.id, adminToken);
      expectApi(restored, 200);
      expect(restored.json.data.user).toMatchObject({ id: target.id, isArchived: false, archivedAt: null });
      expect(restored.json.data.user).not.toHaveProperty('passwordHash');
      const back = await getList(listRoute, { search: 'moderation.test', sortBy: 'id', sortOrder: 'asc' }, adminToken);
      expect(back.json.data.users.map((u: { id: number }) => u.id)).toEqual([target.id, other.id]);
      expect((await getList(archivedRoute, { search: 'moderation.test' }, adminToken)).json.data.users).toEqual([]);
      // Restored people log in again (their old sessions stay ended).
      const again = await login({ email: target.email, password: PASSWORD }, 'api', meta);
      expect(again.token).toBeTruthy();
      expectApi(await logoutWith(session.token), 401);

      const archiveAudit = await auditRows(target.id, 'user.archive');
      expect(archiveAudit).toHaveLength(1);
      expect(archiveAudit[0]).toMatchObject({ actorId: admin.id, targetType: 'user', targetId: String(target.id) });
      expect(archiveAudit[0]!.details).toMatchObject({ email: target.email });
      const restoreAudit = await auditRows(target.id, 'user.restore');
      expect(restoreAudit).toHaveLength(1);
      expect(restoreAudit[0]).toMatchObject({ actorId: admin.id, targetType: 'user' });
    });

    it('archiving twice (and restoring twice) is idempotent: same timestamp, one audit row each', async () => {
      const target = await createTraveler();
      const first = await archiveUser(admin, target.id);
      const second = await archiveUser(admin, target.id);
      expect(second.deletedAt!.toISOString()).toBe(first.deletedAt!.toISOString());
      expect(await auditRows(target.id, 'user.archive')).toHaveLength(1);
      expectApi(await moderateVia(restoreRoute, target.id, adminToken), 200);
      const twice = await moderateVia(restoreRoute, target.id, adminToken);
      expectApi(twice, 200);
      expect(twice.json.data.user.isArchived).toBe(false);
      expect(await auditRows(target.id, 'user.restore')).toHaveLength(1);
    });

    it('DELETE /api/v1/users/{id} (the user route, which calls archiveUser) archives for admins only', async () => {
      const target = await createTraveler({ email: 'delete-route@moderation-delete.test' });
      const del = (token?: string, id: number | string = target.id) =>
        server.request(`/api/v1/users/${id}`, { method: 'DELETE', token });
      expectApi(await del(undefined), 401);
      expectApi(await del(travelerToken), 403);
      expectApi(await del(guideToken), 403);
      expect(await auditRows(target.id)).toHaveLength(0);
      const res = await del(adminToken);
      expectApi(res, 200);
      expect(res.json.data.user).toMatchObject({ id: target.id, isArchived: true });
      expect((await getList(archivedRoute, { search: 'moderation-delete' }, adminToken)).json.data.users).toHaveLength(1);
      expect(await auditRows(target.id, 'user.archive')).toHaveLength(1);
      const self = await del(adminToken, admin.id);
      expectApi(self, 403);
      expect(self.json.message).toBe('無法停權或封存自己的帳號');
      expectApi(await del(adminToken, 'nope'), 404);
    });

    it('an admin cannot archive themself', async () => {
      const error = await archiveUser(admin, admin.id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'FORBIDDEN', messageKey: 'admin.errors.cannotModerateSelf' });
      const [row] = await getDb().select().from(users).where(eq(users.id, admin.id));
      expect(row!.deletedAt).toBeNull();
      expect(await auditRows(admin.id)).toHaveLength(0);
    });

    it('an unknown or malformed id is USER_NOT_FOUND', async () => {
      await expect(archiveUser(admin, 987_654)).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
      await expect(archiveUser(admin, Number.NaN)).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
      await expect(restoreUser(admin, 2 ** 40)).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
    });
  });

  describe('block and unblock', () => {
    it('block ends every session at once, keeps the user listed, and login answers ACCOUNT_BLOCKED; unblock lets them log in', async () => {
      const target = await createGuide({ email: 'block-me@blocking.test', passwordHash: await hashPassword(PASSWORD) });
      const session = await loginAs(target);
      const viaLogin = await login({ email: target.email, password: PASSWORD }, 'web', meta);
      expect(await liveSessionCount(target.id)).toBe(3);

      const res = await moderateVia(blockRoute, target.id, adminToken);
      expectApi(res, 200);
      expect(res.json.data.user).toMatchObject({ id: target.id, isBlocked: true, status: 'suspended' });
      expect(res.json.data.user.blockedAt).toEqual(expect.any(String));

      expect(await liveSessionCount(target.id)).toBe(0);
      const denied = await logoutWith(session.token);
      expectApi(denied, 401);
      expect(denied.json.code).toBe('UNAUTHORIZED');
      expect(await getActiveSession(session.webSessionId)).toBeUndefined();
      expect(await getActiveSession(viaLogin.session.id)).toBeUndefined();
      await expect(login({ email: target.email, password: PASSWORD }, 'api', meta)).rejects.toMatchObject({
        code: 'ACCOUNT_BLOCKED',
      });

      // Blocked, not archived: still in the user list, flagged.
      const listed = await getList(listRoute, { search: 'blocking.test' }, adminToken);
      expect(listed.json.data.users).toEqual([expect.objectContaining({ id: target.id, isBlocked: true, status: 'suspended' })]);

      const lifted = await moderateVia(unblockRoute, target.id, adminToken);
      expectApi(lifted, 200);
      expect(lifted.json.data.user).toMatchObject({ id: target.id, isBlocked: false, status: 'active', blockedAt: null });
      const again = await login({ email: target.email, password: PASSWORD }, 'api', meta);
      expect(again.token).toBeTruthy();
      const check = await logoutWith(again.token!);
      expectApi(check, 200);
      // The sessions that were open before the block stay ended.
      expectApi(await logoutWith(session.token), 401);

      const blockAudit = await auditRows(target.id, 'user.block');
      expect(blockAudit).toHaveLength(1);
      expect(blockAudit[0]).toMatchObject({ actorId: admin.id, targetType: 'user', targetId: String(target.id) });
      expect(blockAudit[0]!.details).toMatchObject({ previousStatus: 'active', status: 'suspended' });
      const unblockAudit = await auditRows(target.id, 'user.unblock');
      expect(unblockAudit).toHaveLength(1);
      expect(unblockAudit[0]!.details).toMatchObject({ previousStatus: 'suspended', status: 'active' });
    });

    it('blocking twice keeps the first timestamp and writes one audit row; unblocking a never-blocked user changes nothing', async () => {
      const target = await createTraveler();
      const first = await blockUser(admin, target.id);
      const second = await moderateVia(blockRoute, target.id, adminToken);
      expectApi(second, 200);
      expect(second.json.data.user.blockedAt).toBe(first.blockedAt!.toISOString());
      expect(await auditRows(target.id, 'user.block')).toHaveLength(1);

      const inactive = await createTraveler({ status: 'inactive' });
      const same = await unblockUser(admin, inactive.id);
      expect(same.status).toBe('inactive');
      expect(await auditRows(inactive.id)).toHaveLength(0);
    });

    it('an admin cannot block themself (403 with a clear message in the asker\'s language)', async () => {
      const zh = await moderateVia(blockRoute, admin.id, adminToken);
      expectApi(zh, 403);
      expect(zh.json).toMatchObject({ success: false, code: 'FORBIDDEN', message: '無法停權或封存自己的帳號' });
      const en = await moderateVia(blockRoute, admin.id, adminToken, { 'accept-language': 'en-US,en;q=0.9' });
      expect(en.json.message).toBe("You can't block or archive your own account.");
      const ja = await moderateVia(blockRoute, admin.id, adminToken, { 'accept-language': 'ja' });
      expect(ja.json.message).toBe('自分のアカウントを停止またはアーカイブすることはできません。');
      await expect(blockUser(admin, admin.id)).rejects.toMatchObject({ code: 'FORBIDDEN' });
      // The admin is still logged in and unblocked.
      const [row] = await getDb().select().from(users).where(eq(users.id, admin.id));
      expect(row!.blockedAt).toBeNull();
      expectApi(await getList(listRoute, {}, adminToken), 200);
    });

    it('another admin can be neither blocked, archived nor given another role: 403 in the asker\'s language, nothing changes, no audit row (decision 037)', async () => {
      const second = await createUser({ type: 'admin', name: 'Second Admin' });
      const { token } = await loginAs(second);
      // Each of the two could lock the other out before: neither can now, through the API or the services.
      for (const [actor, actorToken, victim] of [
        [admin, adminToken, second],
        [second, token, admin],
      ] as const) {
        const zh = await moderateVia(blockRoute, victim.id, actorToken);
        expectApi(zh, 403);
        expect(zh.json).toMatchObject({ success: false, code: 'FORBIDDEN', message: '管理員帳號只能由伺服器設定（ADMIN_EMAIL）管理：無法停權、封存其他管理員，也無法變更其角色。' });
        const en = await server.request(`/api/v1/users/${victim.id}`, { method: 'DELETE', token: actorToken, headers: { 'accept-language': 'en' } });
        expectApi(en, 403);
        expect(en.json.message).toBe('Admin accounts are managed in the server settings (ADMIN_EMAIL): no admin can block, archive or change the role of another admin.');
        const ja = await moderateVia(blockRoute, victim.id, actorToken, { 'accept-language': 'ja' });
        expect(ja.json.message).toBe('管理者アカウントはサーバー設定（ADMIN_EMAIL）でのみ管理されます。他の管理者を停止・アーカイブしたり、役割を変更したりすることはできません。');
        for (const attempt of [() => blockUser(actor, victim.id), () => archiveUser(actor, victim.id), () => changeUserRole(actor, victim.id, 'traveler')]) {
          await expect(attempt()).rejects.toMatchObject({ code: 'FORBIDDEN', messageKey: 'admin.errors.adminAccount' });
        }
        const [row] = await getDb().select().from(users).where(eq(users.id, victim.id));
        expect(row).toMatchObject({ type: 'admin', blockedAt: null, deletedAt: null, status: victim.status });
        expect(await auditRows(victim.id)).toHaveLength(0);
      }
      // Both still work.
      expectApi(await getList(listRoute, {}, token), 200);
      expectApi(await getList(listRoute, {}, adminToken), 200);
    });

    it('an admin account left blocked or archived (before decision 037) can still be unblocked and restored', async () => {
      const stuck = await createUser({ type: 'admin', blockedAt: new Date(), status: 'suspended', deletedAt: new Date() });
      expectApi(await moderateVia(unblockRoute, stuck.id, adminToken), 200);
      expectApi(await moderateVia(restoreRoute, stuck.id, adminToken), 200);
      const [row] = await getDb().select().from(users).where(eq(users.id, stuck.id));
      expect(row).toMatchObject({ blockedAt: null, deletedAt: null, status: 'active' });
    });
  });

  describe('ids and routing', () => {
    it.each(['abc', '0', '-1', '1e3', '12abc', '99999999999', '987654', 'archived'])(
      'id %s answers 404 USER_NOT_FOUND on block, unblock and restore',
      async (id) => {
        for (const route of [blockRoute, unblockRoute, restoreRoute]) {
          const res = await moderateVia(route, id, adminToken);
          expectApi(res, 404, `${route} ${id}`);
          expect(res.json).toMatchObject({ success: false, code: 'USER_NOT_FOUND' });
        }
      },
    );

    it('a method a route does not have is 405 with Allow, and changes nothing', async () => {
      const victim = await createTraveler();
      for (const [method, path, allow] of [
        ['POST', '/api/v1/users', 'GET, HEAD'],
        ['DELETE', '/api/v1/users/archived/list', 'GET, HEAD'],
        ['GET', `/api/v1/users/${victim.id}/block`, 'POST'],
        ['DELETE', `/api/v1/users/${victim.id}/block`, 'POST'],
        ['PUT', `/api/v1/users/${victim.id}/unblock`, 'POST'],
        ['POST', `/api/v1/users/${victim.id}/restore`, 'PUT'],
        ['PATCH', `/api/v1/users/${victim.id}`, 'GET, HEAD, PUT, DELETE'],
      ] as const) {
        const res = await server.request(path, { method, token: adminToken, json: method === 'GET' ? undefined : {} });
        expectApi(res, 405, `${method} ${path}`);
        expect(res.json.code).toBe('METHOD_NOT_ALLOWED');
        expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
      }
      const [row] = await getDb().select().from(users).where(eq(users.id, victim.id));
      expect(row).toEqual(victim);
      expect(await auditRows(victim.id)).toHaveLength(0);
    });

    it('/api/v1/users/archived/list is its own route, not an $id route', () => {
      // The route tree the server really serves (the Remix build's manifest, route folders included).
      type Node = { id: string; path?: string; index?: boolean; children: Node[] };
      const routes = server.build.routes;
      const nodes = new Map<string, Node>(Object.values(routes).map((r) => [r.id, { id: r.id, path: r.path, index: r.index, children: [] }]));
      for (const r of Object.values(routes)) if (r.parentId) nodes.get(r.parentId)!.children.push(nodes.get(r.id)!);
      const leaf = (url: string) => {
        const matches = matchRoutes([nodes.get('root')!] as never, url) as { route: Node; params: Record<string, string> }[] | null;
        const last = matches?.at(-1);
        return last && { id: last.route.id, params: last.params };
      };
      const id = (file: string) => `routes/api+/v1+/users+/${file}`;
      expect(leaf('/api/v1/users/archived/list')).toEqual({ id: id('archived.list'), params: {} });
      expect(leaf('/api/v1/users')?.id).toBe(id('_index'));
      expect(leaf('/api/v1/users/42')).toEqual({ id: id('$id'), params: { id: '42' } });
      expect(leaf('/api/v1/users/42/restore')).toEqual({ id: id('$id.restore'), params: { id: '42' } });
      expect(leaf('/api/v1/users/42/block')).toEqual({ id: id('$id.block'), params: { id: '42' } });
      expect(leaf('/api/v1/users/42/unblock')).toEqual({ id: id('$id.unblock'), params: { id: '42' } });
      // The action routes nest under the $id route in the manifest, but Remix serves a resource request with
      // the leaf module only (server-runtime handleResourceRequest), so the parent's loader never runs.
      // "archived" alone would be an id, and ids are numbers: see the 404 test above.
      expect(leaf('/api/v1/users/archived')).toEqual({ id: id('$id'), params: { id: 'archived' } });
    });

    it('the archived/list module answers the list, not a user lookup', async () => {
      const gone = await createTraveler({ email: 'routing@archived-route.test' });
      await archiveUser(admin, gone.id);
      const res = await server.request('/api/v1/users/archived/list?search=archived-route', { token: adminToken });
      expectApi(res, 200);
      expect(res.json.data).toMatchObject({
        users: [expect.objectContaining({ id: gone.id, isArchived: true })],
        pagination: { total: 1 },
        filters: { type: null, search: 'archived-route' },
        sorting: { sortBy: 'registerDate', sortOrder: 'desc' },
      });
    });
  });
});
