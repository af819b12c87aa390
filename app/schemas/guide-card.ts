import type { ProfileLocale } from '~/lib/localized-profile';

/** A guide as listed on / and /guides (the browser renders it; guides.server.ts builds it). */
export interface GuideCard {
  id: number;
  name: string;
  avatarUrl: string | null;
  city: string | null;
  languages: string[];
  price: number | null;
  bio: string | null;
  /** The one-line headline in the reader's language, or the guide's own (then `writtenIn` says which). */
  headline: string | null;
  writtenIn: ProfileLocale | null;
  averageRating: number | null;
  reviewCount: number;
  /** ID-verified (issue 11): the card shows a 'verified' mark. */
  isIdVerified: boolean;
  /** The first day (YYYY-MM-DD, Taiwan) with an open, unbooked slot; null when there is none. */
  nextAvailable: string | null;
}
