import { and, count, desc, eq } from 'drizzle-orm';
import { FALLBACK_LOCALE, type Locale } from '~/i18n/config';
import { getFixedT } from '~/i18n/i18n.server';
import { compareVersions, FALLBACK_TERMS_ID, FALLBACK_TERMS_UPDATED_AT, FALLBACK_TERMS_VERSION } from '~/lib/terms';
import type { PublishTermsInput, TermsDocument } from '~/schemas/terms';
import { getDb, type Database } from '~db/client';
import { terms, termsAgreements } from '~db/schema';
import type { TermsKind } from '~/lib/terms';
import type { Viewer } from './access.server';
import { recordAudit } from './audit.server';
import { now as clockNow } from './clock.server';
import { AppError, pgErrorCode, UNIQUE_VIOLATION } from './errors.server';


/** The active text of a kind in the reader's language, falling back to zh-TW; undefined when none is active. */
export async function getActiveTerms(kind: TermsKind, locale: Locale) {
  const db = getDb();
  const find = async (lang: Locale) => {
    const [row] = await db
      .select({
        id: terms.id,
        kind: terms.kind,
        locale: terms.locale,
        title: terms.title,
        content: terms.content,
        version: terms.version,
        isActive: terms.isActive,
        createdAt: terms.createdAt,
        updatedAt: terms.updatedAt,
      })
      .from(terms)
      .where(and(eq(terms.kind, kind), eq(terms.locale, lang), eq(terms.isActive, true)));
    return row;
  };
  return (await find(locale)) ?? (locale === FALLBACK_LOCALE ? undefined : await find(FALLBACK_LOCALE));
}

/* ------------------------------------------------------------------ issue 24: agreeing to the terms of service */

type TermsRow = typeof terms.$inferSelect;

/**
 * The terms of service users agree to: the highest active version of kind 'terms' (a version published in any
 * language is the current one), in the reader's language when that version exists in it, else zh-TW; the
 * built-in fallback (SPEC §3, version 1.0.0) when none is active.
 */
export async function currentTerms(locale: Locale, db: Database = getDb()): Promise<TermsDocument & { locale: Locale }> {
  const active = await db.select().from(terms).where(and(eq(terms.kind, 'terms'), eq(terms.isActive, true)));
  const version = currentVersionOf(active);
  const ofVersion = active.filter((row) => row.version === version);
  const row = ofVersion.find((r) => r.locale === locale) ?? ofVersion.find((r) => r.locale === FALLBACK_LOCALE) ?? ofVersion[0];
  if (row) {
    return {
      id: row.id,
      title: row.title,
      content: row.content,
      version: row.version,
      isActive: true,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      locale: row.locale,
    };
  }
  const t = await getFixedT(locale);
  return {
    id: FALLBACK_TERMS_ID,
    title: t('terms.fallback.title'),
    content: t('terms.fallback.content'),
    version: FALLBACK_TERMS_VERSION,
    isActive: true,
    createdAt: FALLBACK_TERMS_UPDATED_AT,
    updatedAt: FALLBACK_TERMS_UPDATED_AT,
    locale,
  };
}

function currentVersionOf(active: Pick<TermsRow, 'version'>[]): string {
  return active.map((row) => row.version).sort(compareVersions).at(-1) ?? FALLBACK_TERMS_VERSION;
}

/** The version of the terms of service a person agrees to now (the register form shows it). */
export async function currentTermsVersion(db: Database = getDb()): Promise<string> {
  return currentVersion(db);
}

async function currentVersion(db: Database): Promise<string> {
  return currentVersionOf(await db.select({ version: terms.version }).from(terms).where(and(eq(terms.kind, 'terms'), eq(terms.isActive, true))));
}

/**
 * SPEC §7 agreement-status: a user must agree while they have not agreed to the current version (a new user,
 * and everyone after a new version is published). Admins skip the check (SPEC §4, §6).
 */
export async function agreementStatus(viewer: Viewer, db: Database = getDb()) {
  const version = await currentVersion(db);
  const [latest] = await db
    .select({ version: termsAgreements.version })
    .from(termsAgreements)
    .where(eq(termsAgreements.userId, viewer.id))
    .orderBy(desc(termsAgreements.agreedAt), desc(termsAgreements.id))
    .limit(1);
  const agreed = latest ? (await db.select({ id: termsAgreements.id }).from(termsAgreements).where(and(eq(termsAgreements.userId, viewer.id), eq(termsAgreements.version, version)))).length > 0 : false;
  return { requiresAgreement: viewer.type !== 'admin' && !agreed, currentVersion: version, agreedVersion: latest?.version ?? null };
}

/**
 * Records that the user agreed to the current terms (SPEC §7 POST /api/terms/agree). Another id or version
 * than the current one (the terms changed while the modal was open) is a 400 that changes nothing.
 */
export async function agreeToTerms(
  viewer: Viewer,
  input: { termsId: number; termsVersion: string },
  db: Database = getDb(),
  at: Date = clockNow(),
): Promise<{ version: string; agreedAt: string }> {
  const current = await currentTerms(FALLBACK_LOCALE, db);
  const active = await db.select({ id: terms.id }).from(terms).where(and(eq(terms.kind, 'terms'), eq(terms.isActive, true), eq(terms.version, current.version)));
  const idMatches = current.id === FALLBACK_TERMS_ID ? input.termsId === FALLBACK_TERMS_ID : active.some((row) => row.id === input.termsId);
  if (input.termsVersion !== current.version || !idMatches) {
    throw new AppError('VALIDATION_ERROR', { messageKey: 'terms.errors.VERSION_MISMATCH', fieldErrors: { termsVersion: ['terms.errors.VERSION_MISMATCH'] } });
  }
  const termsId = current.id === FALLBACK_TERMS_ID ? null : input.termsId;
  await db.insert(termsAgreements).values({ userId: viewer.id, termsId, version: current.version, agreedAt: at }).onConflictDoNothing();
  const [row] = await db
    .select({ version: termsAgreements.version, agreedAt: termsAgreements.agreedAt })
    .from(termsAgreements)
    .where(and(eq(termsAgreements.userId, viewer.id), eq(termsAgreements.version, current.version)));
  return { version: row!.version, agreedAt: row!.agreedAt.toISOString() };
}

/**
 * Sign-up with the terms box ticked (issue 24): records agreement to the current version, in the caller's
 * transaction. `readVersion` is the version the person was shown; when it is no longer the current one (a new
 * version was published meanwhile) nothing is recorded and the modal asks at the first login. Returns the
 * version recorded, or null.
 */
export async function recordAgreementAtSignUp(userId: number, readVersion: string | undefined, db: Database, at: Date = clockNow()): Promise<string | null> {
  const version = await currentVersion(db);
  if (readVersion !== undefined && readVersion !== version) return null;
  const rows = await db
    .select({ id: terms.id, locale: terms.locale })
    .from(terms)
    .where(and(eq(terms.kind, 'terms'), eq(terms.isActive, true), eq(terms.version, version)));
  // The row agreeToTerms records: the version's zh-TW text, else any language; none for the built-in text.
  const termsId = (rows.find((r) => r.locale === FALLBACK_LOCALE) ?? rows[0])?.id ?? null;
  await db.insert(termsAgreements).values({ userId, termsId, version, agreedAt: at }).onConflictDoNothing();
  return version;
}

/* ------------------------------------------------------------------ issue 22: the admin's versions */

/** Every version of every kind and language, newest first, with how many users agreed to each (terms only). */
export async function listTermsVersions(db: Database = getDb()) {
  const rows = await db
    .select({
      id: terms.id,
      kind: terms.kind,
      locale: terms.locale,
      title: terms.title,
      version: terms.version,
      isActive: terms.isActive,
      createdAt: terms.createdAt,
      agreements: count(termsAgreements.id),
    })
    .from(terms)
    .leftJoin(termsAgreements, eq(termsAgreements.termsId, terms.id))
    .groupBy(terms.id)
    .orderBy(desc(terms.createdAt), desc(terms.id));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/**
 * Publishes a new version of one kind in one language: it becomes the active one (the previous is kept,
 * inactive), in one transaction with its audit entry. The version only goes up, per kind and language.
 * A new version of the terms of service makes every user agree again (agreementStatus).
 */
export async function publishTerms(admin: Viewer, input: PublishTermsInput, db: Database = getDb(), at: Date = clockNow()) {
  if (admin.type !== 'admin') throw new AppError('FORBIDDEN');
  try {
    return await db.transaction(async (tx) => {
      const existing = await tx
        .select({ id: terms.id, version: terms.version, isActive: terms.isActive })
        .from(terms)
        .where(and(eq(terms.kind, input.kind), eq(terms.locale, input.locale)))
        .for('update');
      const highest = existing.map((row) => row.version).sort(compareVersions).at(-1) ?? (input.kind === 'terms' ? FALLBACK_TERMS_VERSION : undefined);
      if (highest && compareVersions(input.version, highest) <= 0) throw versionNotHigher(highest);
      const previous = existing.find((row) => row.isActive);
      await tx.update(terms).set({ isActive: false, updatedAt: at }).where(and(eq(terms.kind, input.kind), eq(terms.locale, input.locale), eq(terms.isActive, true)));
      const [created] = await tx
        .insert(terms)
        .values({ kind: input.kind, locale: input.locale, title: input.title, content: input.content, version: input.version, isActive: true, createdAt: at, updatedAt: at })
        .returning({ id: terms.id, version: terms.version });
      await recordAudit(
        {
          actorId: admin.id,
          action: 'terms.publish',
          targetType: 'terms',
          targetId: created!.id,
          details: { kind: input.kind, locale: input.locale, version: input.version, previousVersion: previous ? existing.find((r) => r.id === previous.id)?.version : null },
        },
        tx as unknown as Database,
      );
      return created!;
    });
  } catch (error) {
    // Two admins publishing the same version at once: the unique index decides.
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw versionNotHigher(input.version);
    throw error;
  }
}

function versionNotHigher(current: string) {
  return new AppError('VALIDATION_ERROR', {
    messageKey: 'terms.admin.errors.VERSION_NOT_HIGHER',
    params: { current },
    fieldErrors: { version: ['terms.admin.errors.VERSION_NOT_HIGHER_FIELD'] },
  });
}
