import type { ProfileLocale } from '~/lib/localized-profile';

/** A guide as listed on / and /guides (the browser renders it; guides.server.ts builds it). */
export interface GuideCard {
  id: number;
  name: string;
  avatarUrl: string | null;
  city: string | null;
  languages: string[];
  price: number | null;
  /** The most people one booking may bring (docs/decisions/016-group-size.md). */
  maxGroupSize: number;
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

/** What a card renders (everything but the bio). */
export type ListedGuideCard = Omit<GuideCard, 'bio'>;

type PackedGuideCard = [
  id: number,
  name: string,
  avatarUrl: string | null,
  city: string | null,
  languages: string[],
  price: number | null,
  maxGroupSize: number,
  headline: string | null,
  writtenIn: ProfileLocale | null,
  averageRating: number | null,
  reviewCount: number,
  isIdVerified: boolean,
  nextAvailable: string | null,
];

/**
 * The cards of a list page as its loader sends them: one JSON string of arrays (fields in a fixed order). Sent
 * as objects, turbo-stream gives every field name and every value a slot of its own and each card a list of
 * references to them; in the HTML of /guides that cost 366 bytes more after gzip than this string (issue 8).
 */
export function packGuideCards(cards: ListedGuideCard[]): string {
  return JSON.stringify(
    cards.map((c): PackedGuideCard => [
      c.id,
      c.name,
      c.avatarUrl,
      c.city,
      c.languages,
      c.price,
      c.maxGroupSize,
      c.headline,
      c.writtenIn,
      c.averageRating,
      c.reviewCount,
      c.isIdVerified,
      c.nextAvailable,
    ]),
  );
}

/** The cards from `packGuideCards`. */
export function unpackGuideCards(packed: string): ListedGuideCard[] {
  return (JSON.parse(packed) as PackedGuideCard[]).map(
    ([id, name, avatarUrl, city, languages, price, maxGroupSize, headline, writtenIn, averageRating, reviewCount, isIdVerified, nextAvailable]) => ({
      id,
      name,
      avatarUrl,
      city,
      languages,
      price,
      maxGroupSize,
      headline,
      writtenIn,
      averageRating,
      reviewCount,
      isIdVerified,
      nextAvailable,
    }),
  );
}
