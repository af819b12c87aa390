import { and, eq, ne } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { users } from '~db/schema';
import type { Locale } from '~/i18n/config';

/** Remembers a logged-in person's interface language; mail to them is written in it (decision 004). */
export async function saveUserLocale(userId: number, locale: Locale, db: Database = getDb()): Promise<void> {
  await db
    .update(users)
    .set({ locale, updatedAt: new Date() })
    .where(and(eq(users.id, userId), ne(users.locale, locale)));
}
