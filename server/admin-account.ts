import { eq, sql } from 'drizzle-orm';
import { normaliseEmail } from '~/lib/email';
import { hashPassword } from '~/services/accounts/passwords.server';
import { getDb, type Database } from '~db/client';
import { users } from '~db/schema';

/*
 * Start-up rule ADMIN_EMAIL / ADMIN_PASSWORD (ARCHITECTURE §3), used by every start and by the demo seed. It
 * lives here, with the start-up code, rather than in users.server.ts, so that starting the server does not
 * load the user services (and, through them, mail and translations).
 */

/**
 * Makes sure an administrator with this email exists, is active and email-verified, and has this password
 * (ADMIN_EMAIL / ADMIN_PASSWORD on every start). Returns whether the account was created.
 */
export async function ensureAdmin(email: string, password: string, db: Database = getDb()): Promise<{ created: boolean }> {
  const passwordHash = await hashPassword(password);
  const [existing] = await db.select().from(users).where(eq(sql`lower(${users.email})`, normaliseEmail(email)));
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
