import { eq, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { users } from '~db/schema';
import { blobUrl } from './blobs.server';
import { hashPassword } from './passwords.server';

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(email: string, db: Database = getDb()) {
  const [row] = await db.select().from(users).where(eq(sql`lower(${users.email})`, normaliseEmail(email)));
  return row;
}

/**
 * Makes sure an administrator with this email exists, is active and email-verified, and has this password
 * (ADMIN_EMAIL / ADMIN_PASSWORD on every start). Returns whether the account was created.
 */
export async function ensureAdmin(email: string, password: string, db: Database = getDb()): Promise<{ created: boolean }> {
  const passwordHash = await hashPassword(password);
  const existing = await findUserByEmail(email, db);
  const now = new Date();
  if (existing) {
    await db
      .update(users)
      .set({
        type: 'admin',
        passwordHash,
        status: 'active',
        isEmailVerified: true,
        emailVerifiedAt: existing.emailVerifiedAt ?? now,
        blockedAt: null,
        deletedAt: null,
        updatedAt: now,
      })
      .where(eq(users.id, existing.id));
    return { created: false };
  }
  await db.insert(users).values({
    name: '系統管理員',
    email: normaliseEmail(email),
    passwordHash,
    type: 'admin',
    isEmailVerified: true,
    emailVerifiedAt: now,
  });
  return { created: true };
}

export type UserRow = typeof users.$inferSelect;
export type UserType = UserRow['type'];

/**
 * What a user looks like outside the server (API `data.user`, the root loader): SPEC §3 User. Never the
 * password hash. `isVerified` and `verificationStatus` are derived from the ID check (SPEC §3).
 */
export function toPublicUser(user: UserRow) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    type: user.type,
    bio: user.bio,
    city: user.city,
    language: user.language,
    price: user.price,
    description: user.description,
    avatar: blobUrl(user.avatarKey),
    locale: user.locale,
    status: user.status,
    guideStatus: user.guideStatus,
    isEmailVerified: user.isEmailVerified,
    isIdVerified: user.isIdVerified,
    isVerified: user.isIdVerified,
    verificationStatus: user.isIdVerified ? ('approved' as const) : ('pending' as const),
    emailVerificationDate: user.emailVerifiedAt?.toISOString() ?? null,
    idVerificationType: user.idVerificationType,
    idVerificationDate: user.idVerifiedAt?.toISOString() ?? null,
    registerDate: user.registerDate.toISOString(),
    lastLogin: user.lastLogin?.toISOString() ?? null,
    isBlocked: user.blockedAt !== null,
    isArchived: user.deletedAt !== null,
  };
}
export type PublicUser = ReturnType<typeof toPublicUser>;

export async function findUserById(id: number, db: Database = getDb()) {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}
