import type { LoaderFunctionArgs } from '@remix-run/node';
import { getConfig } from '~/env.server';
import { getLocale } from '~/i18n/i18n.server';
import type { TermsKind } from '~/lib/terms';
import { getActiveTerms } from '~/services/accounts/terms.server';

/** Loader shared by /terms, /privacy-policy and /booking-terms. */
export function legalLoader(kind: TermsKind) {
  return async ({ request }: LoaderFunctionArgs) => {
    const doc = await getActiveTerms(kind, await getLocale(request));
    return {
      document: doc
        ? { title: doc.title, content: doc.content, version: doc.version, updatedAt: doc.updatedAt.toISOString(), locale: doc.locale }
        : null,
    };
  };
}

/** Where a person writes about the terms (issue 35, /terms/disagree): SUPPORT_EMAIL, else the admin's address. */
export function supportAddress(): string | null {
  const config = getConfig();
  return config.SUPPORT_EMAIL ?? config.ADMIN_EMAIL ?? null;
}
