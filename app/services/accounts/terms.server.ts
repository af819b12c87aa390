import { and, count, desc, eq, isNull, or, sql, type AnyColumn } from 'drizzle-orm';
import { FALLBACK_LOCALE, SUPPORTED_LOCALES, type Locale } from '~/i18n/config';
import { getFixedT } from '~/i18n/i18n.server';
import { compareVersions, FALLBACK_TERMS_ID, FALLBACK_TERMS_UPDATED_AT, FALLBACK_TERMS_VERSION } from '~/lib/terms';
import type { PublishAllTermsInput, PublishTermsInput, TermsDocument } from '~/schemas/terms';
import { getDb, type Database } from '~db/client';
import { terms, termsAgreements, users } from '~db/schema';
import type { TermsKind } from '~/lib/terms';
import type { Viewer } from '../platform/access.server';
import { recordAudit } from '../platform/audit.server';
import { now as clockNow } from '../platform/clock.server';
import { AppError, pgErrorCode, UNIQUE_VIOLATION } from '../platform/errors.server';


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

/** A text of the terms of service as a reader is asked to agree to it. */
export type AgreementTerms = TermsDocument & {
  /** The language of the text. */
  locale: Locale;
  /** The reader's language has no terms of service of its own: this is the zh-TW text (issue 35). */
  untranslated: boolean;
};

/**
 * The terms of service a reader of `locale` agrees to (issue 35: each language has its own line of versions):
 * the active text in that language, else the active zh-TW text (`untranslated`), else the built-in text of
 * SPEC §3 (version 1.0.0, id 0) in the reader's language.
 */
export async function currentTerms(locale: Locale, db: Database = getDb()): Promise<AgreementTerms> {
  const active = await db.select().from(terms).where(and(eq(terms.kind, 'terms'), eq(terms.isActive, true)));
  const row = active.find((r) => r.locale === locale) ?? active.find((r) => r.locale === FALLBACK_LOCALE);
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
      untranslated: row.locale !== locale,
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
    untranslated: false,
  };
}

/** The version of the terms of service a reader of `locale` agrees to now (the register form shows it). */
export async function currentTermsVersion(locale: Locale = FALLBACK_LOCALE, db: Database = getDb()): Promise<string> {
  return (await currentTerms(locale, db)).version;
}

/** An agreement counts for a text: that very row, or the built-in text (no row) of the same version number. */
function agreesTo(document: Pick<TermsDocument, 'id' | 'version'>) {
  return document.id === FALLBACK_TERMS_ID
    ? and(isNull(termsAgreements.termsId), eq(termsAgreements.version, document.version))
    : or(eq(termsAgreements.termsId, document.id), and(isNull(termsAgreements.termsId), eq(termsAgreements.version, document.version)));
}

async function hasAgreed(userId: number, document: Pick<TermsDocument, 'id' | 'version'>, db: Database): Promise<boolean> {
  const [row] = await db.select({ id: termsAgreements.id }).from(termsAgreements).where(and(eq(termsAgreements.userId, userId), agreesTo(document))).limit(1);
  return !!row;
}

/**
 * SPEC §7 agreement-status, per language (issue 35): a user must agree while they have not agreed to the
 * current text of their language (`locale`, the interface language they read in): a new user, and the readers
 * of a language after a new version is published in it (a zh-TW version asks nothing of English readers).
 * Admins skip the check (SPEC §4, §6).
 */
export async function agreementStatus(viewer: Viewer, locale: Locale = FALLBACK_LOCALE, db: Database = getDb()) {
  const document = await currentTerms(locale, db);
  const [latest] = await db
    .select({ version: termsAgreements.version })
    .from(termsAgreements)
    .where(eq(termsAgreements.userId, viewer.id))
    .orderBy(desc(termsAgreements.agreedAt), desc(termsAgreements.id))
    .limit(1);
  const agreed = latest ? await hasAgreed(viewer.id, document, db) : false;
  return {
    requiresAgreement: viewer.type !== 'admin' && !agreed,
    currentVersion: document.version,
    agreedVersion: latest?.version ?? null,
    locale: document.locale,
  };
}

/**
 * Whether the user of `userId` (a column or value) agreed to a current text of the terms of service, as SQL to
 * read beside other facts in one statement (the booking reads it with the traveler): the reader's language is
 * not known there, so the current text of any language counts (the page that asked them was in their language).
 * A user who disagreed, or agreed only to an older version, has not.
 */
export function agreedToCurrentTerms(userId: AnyColumn | number) {
  const activeTerms = sql`${terms.kind} = 'terms' and ${terms.isActive}`;
  return sql<boolean>`exists (select 1 from ${termsAgreements} where ${termsAgreements.userId} = ${userId} and (
    ${termsAgreements.termsId} in (select ${terms.id} from ${terms} where ${activeTerms})
    or (${termsAgreements.termsId} is null and (
      ${termsAgreements.version} in (select ${terms.version} from ${terms} where ${activeTerms})
      or (${termsAgreements.version} = ${sql.raw(`'${FALLBACK_TERMS_VERSION}'`)}
        and not exists (select 1 from ${terms} where ${activeTerms} and ${terms.locale} = ${sql.raw(`'${FALLBACK_LOCALE}'`)}))))))`.mapWith(Boolean);
}

/** The refusal of booking and messaging without an agreement to the current terms (issue 35). */
export const mustAgreeToTerms = () => new AppError('FORBIDDEN', { messageKey: 'terms.errors.MUST_AGREE' });

/** The server's own refusal (issue 35): booking and messaging need an agreement to the current terms of service. */
export async function assertAgreedToTerms(viewer: Viewer, db: Database = getDb()): Promise<void> {
  if (viewer.type === 'admin') return;
  const [row] = await db.select({ agreed: agreedToCurrentTerms(viewer.id) }).from(users).where(eq(users.id, viewer.id));
  if (!row?.agreed) throw mustAgreeToTerms();
}

/**
 * Records that the user agreed to the current terms (SPEC §7 POST /api/terms/agree): the current text of one
 * of the languages (the one they read). Any other id or version (the terms changed while the modal was open)
 * is a 400 that changes nothing.
 */
export async function agreeToTerms(
  viewer: Viewer,
  input: { termsId: number; termsVersion: string },
  db: Database = getDb(),
  at: Date = clockNow(),
): Promise<{ version: string; agreedAt: string }> {
  const documents = await Promise.all(SUPPORTED_LOCALES.map((locale) => currentTerms(locale, db)));
  const document = documents.find((d) => d.id === input.termsId && d.version === input.termsVersion);
  if (!document) {
    throw new AppError('VALIDATION_ERROR', { messageKey: 'terms.errors.VERSION_MISMATCH', fieldErrors: { termsVersion: ['terms.errors.VERSION_MISMATCH'] } });
  }
  if (!(await hasAgreed(viewer.id, document, db))) await recordAgreementToTermsInForce(viewer.id, documents, db, at);
  const [row] = await db
    .select({ version: termsAgreements.version, agreedAt: termsAgreements.agreedAt })
    .from(termsAgreements)
    .where(and(eq(termsAgreements.userId, viewer.id), agreesTo(document)))
    .orderBy(desc(termsAgreements.agreedAt))
    .limit(1);
  return { version: document.version, agreedAt: row!.agreedAt.toISOString() };
}

/**
 * Sign-up with the terms box ticked (issue 24): records agreement to the terms in force (the current text of
 * every language; the one checked against is the language the person signed up in), in the caller's transaction. `readVersion` is the version the person was shown; when it
 * is no longer the current one (a new version was published meanwhile) nothing is recorded and the modal asks
 * at the first login. Returns the version recorded, or null.
 */
export async function recordAgreementAtSignUp(
  userId: number,
  readVersion: string | undefined,
  db: Database,
  at: Date = clockNow(),
  locale: Locale = FALLBACK_LOCALE,
): Promise<string | null> {
  const documents = await Promise.all(SUPPORTED_LOCALES.map((each) => currentTerms(each, db)));
  const document = documents[SUPPORTED_LOCALES.indexOf(locale)]!;
  if (readVersion !== undefined && readVersion !== document.version) return null;
  await recordAgreementToTermsInForce(userId, documents, db, at);
  return document.version;
}

/**
 * Agreeing to the terms is agreeing to the terms in force: the current text of every language is recorded, not only
 * the one read, so a reader who later switches language is not asked again for a text of the same terms; a new
 * version published in one language asks that language's readers only (issue 35).
 */
async function recordAgreementToTermsInForce(userId: number, documents: readonly AgreementTerms[], db: Database, at: Date): Promise<void> {
  const texts = new Map(documents.map((d) => [`${d.id}:${d.version}`, d]));
  await db
    .insert(termsAgreements)
    .values([...texts.values()].map((d) => ({ userId, termsId: d.id === FALLBACK_TERMS_ID ? null : d.id, version: d.version, agreedAt: at })))
    .onConflictDoNothing();
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
 * A new version of the terms of service makes the readers of its language agree again (agreementStatus).
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

/** The same version of one kind in the three languages, all or none (issue 35); each audited as one publish. */
export async function publishTermsInEveryLanguage(admin: Viewer, input: PublishAllTermsInput, db: Database = getDb(), at: Date = clockNow()) {
  if (admin.type !== 'admin') throw new AppError('FORBIDDEN');
  return db.transaction(async (tx) => {
    const created = [];
    for (const text of input.texts) created.push(await publishTerms(admin, { kind: input.kind, version: input.version, ...text }, tx as unknown as Database, at));
    return created;
  });
}

function versionNotHigher(current: string) {
  return new AppError('VALIDATION_ERROR', {
    messageKey: 'terms.admin.errors.VERSION_NOT_HIGHER',
    params: { current },
    fieldErrors: { version: ['terms.admin.errors.VERSION_NOT_HIGHER_FIELD'] },
  });
}

/**
 * Where an admin's new version of one kind and language starts (issue 35): the active text of that language,
 * else the zh-TW one (to translate), else for the terms of service the built-in text; the version it replaces.
 */
export async function termsStartingPoint(kind: TermsKind, locale: Locale, db: Database = getDb()) {
  const active = await db.select().from(terms).where(and(eq(terms.kind, kind), eq(terms.isActive, true)));
  const own = active.find((r) => r.locale === locale);
  const row = own ?? active.find((r) => r.locale === FALLBACK_LOCALE);
  if (row) return { kind, locale, from: row.locale, title: row.title, content: row.content, currentVersion: own?.version ?? null };
  if (kind === 'terms') {
    const t = await getFixedT(locale);
    return { kind, locale, from: locale, title: t('terms.fallback.title'), content: t('terms.fallback.content'), currentVersion: FALLBACK_TERMS_VERSION };
  }
  return { kind, locale, from: locale, title: '', content: '', currentVersion: null };
}

/**
 * The readers a new version of `kind` in `locale` asks to agree again (issue 35): only the terms of service
 * ask, and only the readers of that language, plus, for zh-TW, those of a language without a text of its own.
 */
export async function readersAskedAgain(kind: TermsKind, locale: Locale | 'all', db: Database = getDb()): Promise<Locale[]> {
  if (kind !== 'terms') return [];
  if (locale === 'all') return [...SUPPORTED_LOCALES];
  if (locale !== FALLBACK_LOCALE) return [locale];
  const active = await db.select({ locale: terms.locale }).from(terms).where(and(eq(terms.kind, 'terms'), eq(terms.isActive, true)));
  return SUPPORTED_LOCALES.filter((l) => l === FALLBACK_LOCALE || !active.some((r) => r.locale === l));
}
