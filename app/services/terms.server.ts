import { and, eq } from 'drizzle-orm';
import { FALLBACK_LOCALE, type Locale } from '~/i18n/config';
import { getDb } from '~db/client';
import { terms, TERMS_KINDS } from '~db/schema';

export type TermsKind = (typeof TERMS_KINDS)[number];

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
