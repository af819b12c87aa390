import { eq, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { users } from '~db/schema';
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
