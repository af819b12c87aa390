/** A guide as listed on / and /guides (the browser renders it; guides.server.ts builds it). */
export interface GuideCard {
  id: number;
  name: string;
  avatarUrl: string | null;
  city: string | null;
  languages: string[];
  price: number | null;
  bio: string | null;
  averageRating: number | null;
  reviewCount: number;
  /** ID-verified (issue 11): the card shows a 'verified' mark. */
  isIdVerified: boolean;
}
