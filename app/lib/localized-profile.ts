/**
 * Which text of a guide's profile a reader sees (issue 9, docs/decisions/002): the guide writes the headline and
 * description in 中文 (the `headline`/`description` columns) and may add English and Japanese; a reader whose
 * language the guide wrote gets that, anyone else the 中文 text with a small "written in 中文" note.
 */
export type ProfileTranslations = Partial<Record<'en' | 'ja', { headline?: string; description?: string }>>;

export const PROFILE_LOCALES = ['zh-TW', 'en', 'ja'] as const;
export type ProfileLocale = (typeof PROFILE_LOCALES)[number];

export interface LocalizedText {
  headline: string | null;
  description: string | null;
  /** Set when the reader's language has no text of its own: the locale the shown text is written in. */
  writtenIn: ProfileLocale | null;
}

export function localizedProfile(
  guide: { headline?: string | null; description?: string | null; localized?: ProfileTranslations | null },
  locale: string,
): LocalizedText {
  if (locale === 'en' || locale === 'ja') {
    const own = guide.localized?.[locale];
    if (own?.description) return { headline: own.headline || null, description: own.description, writtenIn: null };
    if (guide.description || guide.headline) {
      return { headline: guide.headline ?? null, description: guide.description ?? null, writtenIn: 'zh-TW' };
    }
  }
  return { headline: guide.headline ?? null, description: guide.description ?? null, writtenIn: null };
}
