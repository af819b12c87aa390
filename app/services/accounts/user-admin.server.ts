import { and, count, eq, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { users } from '~db/schema';
import { containsPattern, normaliseSearchText, VARIANTS } from '~/lib/search-text';
import {
  userListQuerySchema,
  type AccountState,
  type UserListQuery,
  type UserListQueryInput,
  type UserSortField,
} from '~/schemas/user-admin';
import { AppError, parseValue } from '../platform/errors.server';
import { recordAudit, type AuditAction } from '../platform/audit.server';
import { paginate, type Pagination } from '../catalogue/guides.server';
import { revokeUserSessions } from './sessions.server';
import { toPublicUser, userIdParam, type PublicUser, type UserRow } from './users.server';

/**
 * Admin moderation of accounts (SPEC §4 Users: archived and restored, blocked and unblocked; §6 Admin;
 * §7 Users). The /api/v1/users routes and the /admin/users pages call these; each function checks that the
 * actor is an admin itself, so a route that forgot its role check still cannot moderate.
 *
 * - Archive (`deleted_at`) hides an account: it leaves the user list, cannot log in, and every session
 *   ends. Restore brings it back (a block stays in place).
 * - Block (`blocked_at`, status suspended) keeps the account listed but locked out: every session ends at
 *   once (sessions.server refuses blocked users too) and login answers ACCOUNT_BLOCKED. Unblock sets the
 *   status back to active; the old sessions stay revoked, the person logs in again.
 * - Repeating an action is a quiet no-op (same answer, no second audit row, the first timestamp kept).
 * - An admin cannot block or archive their own account (FORBIDDEN, admin.errors.cannotModerateSelf), nor another
 *   admin's (FORBIDDEN, admin.errors.adminAccount; assertNotAdminAccount, decision 037).
 * - Every change writes an audit_logs row in the same transaction.
 */

/** A user as the admin screens see it: the public shape, when it was blocked or archived, and its status label. */
export type AdminUser = PublicUser & { blockedAt: string | null; archivedAt: string | null; accountState: AccountState };

/** The SPEC status label of an account (decision 020): suspended when blocked, inactive until the email is verified. */
export function accountStateOf(user: Pick<UserRow, 'blockedAt' | 'isEmailVerified'>): AccountState {
  if (user.blockedAt) return 'suspended';
  return user.isEmailVerified ? 'active' : 'inactive';
}

/** The same rule in SQL, for the list's status filter. */
const ACCOUNT_STATE_CONDITIONS: Record<AccountState, SQL> = {
  suspended: sql`${users.blockedAt} is not null`,
  inactive: sql`${users.blockedAt} is null and not ${users.isEmailVerified}`,
  active: sql`${users.blockedAt} is null and ${users.isEmailVerified}`,
};

export function toAdminUser(user: UserRow): AdminUser {
  return {
    ...toPublicUser(user),
    blockedAt: user.blockedAt?.toISOString() ?? null,
    archivedAt: user.deletedAt?.toISOString() ?? null,
    accountState: accountStateOf(user),
  };
}

export interface UserListResult {
  users: AdminUser[];
  pagination: Pagination;
  filters: { type: UserListQuery['type'] | null; status: UserListQuery['status'] | null; search: string | null };
  sorting: { sortBy: UserListQuery['sortBy']; sortOrder: UserListQuery['sortOrder'] };
}

export function assertAdmin(actor: Pick<UserRow, 'type'> | undefined): asserts actor is UserRow {
  if (!actor || actor.type !== 'admin') throw new AppError('FORBIDDEN');
}

/**
 * Admin accounts are managed only by ADMIN_EMAIL/ADMIN_PASSWORD (server/admin-account.ts, applied on every start)
 * and are never made in the product (ASSIGNABLE_ROLES): no admin blocks, archives or changes the role of an admin
 * account, so two admins cannot lock each other out and the last admin can never be removed here
 * (docs/decisions/037-backups-and-admin-accounts.md). Lifting a block or an archive stays possible.
 */
export function assertNotAdminAccount(target: Pick<UserRow, 'type'>): void {
  if (target.type === 'admin') throw new AppError('FORBIDDEN', { messageKey: 'admin.errors.adminAccount' });
}

/** `%`, `_` and `\` in a search are the characters themselves, not LIKE wildcards. */
export function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, '\\$&')}%`;
}

const VARIANT_FROM = Object.keys(VARIANTS).join('');
const VARIANT_TO = Object.values(VARIANTS).join('');

/**
 * A column read the way guide keyword search reads text (app/lib/search-text.ts normaliseSearchText): NFKC,
 * lower case, one spelling of variant characters, so 臺北 finds 台北 and ＡＬＩＣＥ finds alice. Computed per row:
 * the admin list is small next to the catalogue, and no index has to be kept for every account.
 */
function normalisedColumn(column: SQL): SQL {
  return sql`translate(lower(normalize(${column}, NFKC)), ${VARIANT_FROM}, ${VARIANT_TO})`;
}

/** Every word of the search must be in the name or the e-mail address (normalised both sides). */
function searchCondition(search: string): SQL | undefined {
  const words = normaliseSearchText(search).split(' ').filter(Boolean).slice(0, 8);
  if (words.length === 0) return undefined;
  const name = normalisedColumn(sql`${users.name}`);
  const email = normalisedColumn(sql`${users.email}`);
  return and(...words.map((w) => sql`(${name} like ${containsPattern(w)} or ${email} like ${containsPattern(w)})`));
}

const SORT_COLUMNS: Record<UserSortField, SQL> = {
  registerDate: sql`${users.registerDate}`,
  // Case-folded, so "alice" and "Bob" sort as people expect under any database collation.
  name: sql`lower(${users.name})`,
  email: sql`lower(${users.email})`,
  lastLogin: sql`${users.lastLogin}`,
  type: sql`${users.type}`,
  id: sql`${users.id}`,
};

function orderBy(query: UserListQuery): SQL[] {
  const dir = sql.raw(query.sortOrder === 'asc' ? 'asc' : 'desc');
  // Never-logged-in people go last either way; the id keeps pages stable when values tie.
  return [sql`${SORT_COLUMNS[query.sortBy]} ${dir} nulls last`, sql`${users.id} ${dir}`];
}

/**
 * The one definition of the user list filters (issue 22): /admin/users, /admin/users/archived, GET /api/v1/users
 * and the users CSV export build their WHERE here.
 */
export function userListConditions(archived: boolean, query: Pick<UserListQuery, 'type' | 'status' | 'search'>): SQL | undefined {
  const conditions: SQL[] = [archived ? isNotNull(users.deletedAt) : isNull(users.deletedAt)];
  if (query.type) conditions.push(eq(users.type, query.type));
  if (query.status) conditions.push(ACCOUNT_STATE_CONDITIONS[query.status]);
  if (query.search) {
    const matches = searchCondition(query.search);
    if (matches) conditions.push(matches);
  }
  return and(...conditions);
}

async function listByState(archived: boolean, input: UserListQueryInput, db: Database): Promise<UserListResult> {
  // Routes parse already (and so does this, for callers passing raw search params): same rules either way.
  const query = parseValue(userListQuerySchema, input);
  const where = userListConditions(archived, query);
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(...orderBy(query))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return {
    users: rows.map(toAdminUser),
    pagination: paginate(query.page, query.limit, totals?.total ?? 0),
    filters: { type: query.type ?? null, status: query.status ?? null, search: query.search ?? null },
    sorting: { sortBy: query.sortBy, sortOrder: query.sortOrder },
  };
}

/** Accounts that are not archived (blocked ones included, flagged isBlocked), one page at a time. */
export async function listUsers(query: UserListQueryInput = {}, db: Database = getDb()): Promise<UserListResult> {
  return listByState(false, query, db);
}

/** Archived accounts only (SPEC §7 GET /api/v1/users/archived/list), same query and shape. */
export async function listArchivedUsers(query: UserListQueryInput = {}, db: Database = getDb()): Promise<UserListResult> {
  return listByState(true, query, db);
}

interface Moderation {
  action: AuditAction;
  /** Refused on one's own account. */
  notOnSelf: boolean;
  /** Refused on an admin account (assertNotAdminAccount). */
  notOnAdmin: boolean;
  /** Whether the account is already in the wanted state (then nothing changes). */
  done(user: UserRow): boolean;
  change(user: UserRow, now: Date): Partial<typeof users.$inferInsert>;
  /** End every session of the account afterwards. */
  revokeSessions: boolean;
}

async function moderate(actor: UserRow, userId: number, m: Moderation, db: Database): Promise<UserRow> {
  assertAdmin(actor);
  const id = userIdParam(userId);
  if (m.notOnSelf && actor.id === id) throw new AppError('FORBIDDEN', { messageKey: 'admin.errors.cannotModerateSelf' });
  const user = await db.transaction(async (tx) => {
    const [current] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!current) throw new AppError('USER_NOT_FOUND');
    if (m.notOnAdmin) assertNotAdminAccount(current);
    if (m.done(current)) return current;
    const now = new Date();
    const [updated] = (await tx
      .update(users)
      .set({ ...m.change(current, now), updatedAt: now })
      .where(eq(users.id, id))
      .returning()) as [UserRow];
    await recordAudit(
      {
        actorId: actor.id,
        action: m.action,
        targetType: 'user',
        targetId: id,
        details: {
          name: current.name,
          email: current.email,
          type: current.type,
          ...(current.status !== updated.status ? { previousStatus: current.status, status: updated.status } : {}),
        },
      },
      tx,
    );
    return updated;
  });
  // After the commit: from here on the account's tokens and cookies answer 401, and its sockets drop.
  if (m.revokeSessions) await revokeUserSessions(id, db);
  return user;
}

/** Archives an account (DELETE /api/v1/users/{id}); its sessions end. Idempotent. */
export async function archiveUser(actor: UserRow, userId: number, db: Database = getDb()): Promise<UserRow> {
  return moderate(
    actor,
    userId,
    {
      action: 'user.archive',
      notOnSelf: true,
      notOnAdmin: true,
      done: (u) => u.deletedAt !== null,
      change: (_u, now) => ({ deletedAt: now }),
      revokeSessions: true,
    },
    db,
  );
}

/** Brings an archived account back (PUT /api/v1/users/{id}/restore). A block stays in place. */
export async function restoreUser(actor: UserRow, userId: number, db: Database = getDb()): Promise<UserRow> {
  return moderate(
    actor,
    userId,
    {
      action: 'user.restore',
      notOnSelf: false,
      notOnAdmin: false,
      done: (u) => u.deletedAt === null,
      change: () => ({ deletedAt: null }),
      revokeSessions: false,
    },
    db,
  );
}

/** Locks an account out (POST /api/v1/users/{id}/block): status suspended, every session ends. */
export async function blockUser(actor: UserRow, userId: number, db: Database = getDb()): Promise<UserRow> {
  return moderate(
    actor,
    userId,
    {
      action: 'user.block',
      notOnSelf: true,
      notOnAdmin: true,
      done: (u) => u.blockedAt !== null && u.status === 'suspended',
      change: (u, now) => ({ blockedAt: u.blockedAt ?? now, status: 'suspended' }),
      revokeSessions: true,
    },
    db,
  );
}

/** Lifts a block (POST /api/v1/users/{id}/unblock): status active; the person logs in again. */
export async function unblockUser(actor: UserRow, userId: number, db: Database = getDb()): Promise<UserRow> {
  return moderate(
    actor,
    userId,
    {
      action: 'user.unblock',
      notOnSelf: false,
      notOnAdmin: false,
      // An account that was never blocked keeps its status (inactive stays inactive).
      done: (u) => u.blockedAt === null && u.status !== 'suspended',
      change: () => ({ blockedAt: null, status: 'active' }),
      revokeSessions: false,
    },
    db,
  );
}
