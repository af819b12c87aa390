import { z } from 'zod';
import type { GuideCard } from './guide-card';
import { guideCardSchema } from './guide-responses';
import { paginationSchema } from './responses';
import { ORDER_STATUSES } from '~/lib/order-status';
import { TIME_SLOTS } from '~/lib/time-slots';
import { idField, optional, wholeNumber } from './field-rules';

/*
 * Discovery part B (issue 9): favorites, trending, role homes and recommendations. Input schemas shared by the
 * web forms and /api/v1 routes, the shapes the API answers (OpenAPI) and the types the pages render.
 */


/** A positive id as a number or a string of digits. */
export { idField };

/** `limit` of a short list: default `fallback`, above `max` clamped to it, below 1 a validation error. */
export const limitField = (fallback: number, max: number) =>
  optional(wholeNumber(1, Number.MAX_SAFE_INTEGER)).transform((v) => Math.min(v ?? fallback, max));

// ── Favorites ────────────────────────────────────────────────────────────────────────────────────────

export const FAVORITE_TARGET_TYPES = ['guide'] as const;

export const favoriteCreateSchema = z.object({
  targetType: optional(z.enum(FAVORITE_TARGET_TYPES, { error: 'validation.invalid' })).transform((v) => v ?? 'guide'),
  targetId: idField,
});

export const favoritesQuerySchema = z.object({
  userId: optional(idField),
  page: optional(wholeNumber(1, 100_000)).transform((v) => v ?? 1),
  limit: limitField(20, 100),
});

export const FAVORITE_INTENTS = ['toggle', 'remove', 'add'] as const;

/** The heart's form (cards, guide pages, /favorites): POST /favorites intent=toggle|remove|add, guideId, redirectTo. */
export const favoriteFormSchema = z.object({
  intent: z.enum(FAVORITE_INTENTS, { error: 'validation.invalid' }),
  guideId: idField,
  redirectTo: optional(z.string()),
});

// A guide's card is the one of the search answers (guide-responses.ts).

export const favoriteSchema = z.object({
  id: z.int(),
  userId: z.int(),
  targetType: z.enum(FAVORITE_TARGET_TYPES),
  targetId: z.int(),
  createdAt: z.iso.datetime({ offset: true }),
  guide: guideCardSchema.nullable().describe('The guide as listed; null when the guide is no longer listed'),
});

export interface FavoriteView {
  id: number;
  userId: number;
  targetType: 'guide';
  targetId: number;
  createdAt: string;
  guide: GuideCard | null;
}

export const favoriteListData = z.object({ favorites: z.array(favoriteSchema), pagination: paginationSchema });
export const favoriteData = z.object({ favorite: favoriteSchema });

// ── Trending ────────────────────────────────────────────────────────────────────────────────────────

export const TRENDING_TYPES = ['guides', 'cities'] as const;
export type TrendingType = (typeof TRENDING_TYPES)[number];
export const TRENDING_DEFAULT_LIMIT = 10;
export const TRENDING_MAX_LIMIT = 50;

export const trendingQuerySchema = z.object({
  type: optional(z.enum(TRENDING_TYPES, { error: 'validation.invalid' })).transform((v) => v ?? 'guides'),
  limit: limitField(TRENDING_DEFAULT_LIMIT, TRENDING_MAX_LIMIT),
});

const trendingFigures = {
  bookings: z.int().describe('Bookings made in the window'),
  favorites: z.int().describe('Favorites added in the window'),
  score: z.number().describe('bookings × 2 + favorites'),
};

export const trendingGuideSchema = guideCardSchema.extend(trendingFigures);
export const trendingCitySchema = z.object({ city: z.string(), guideCount: z.int(), ...trendingFigures });

export type TrendingGuide = GuideCard & { bookings: number; favorites: number; score: number };
export interface TrendingCity {
  city: string;
  guideCount: number;
  bookings: number;
  favorites: number;
  score: number;
}

export const trendingData = z.object({
  type: z.enum(TRENDING_TYPES),
  windowDays: z.int(),
  guides: z.array(trendingGuideSchema).optional().describe('With type=guides'),
  cities: z.array(trendingCitySchema).optional().describe('With type=cities'),
});

// ── Role homes ──────────────────────────────────────────────────────────────────────────────────────

export const RECENT_DEFAULT_LIMIT = 5;
export const RECENT_MAX_LIMIT = 50;
export const recentQuerySchema = z.object({ limit: limitField(RECENT_DEFAULT_LIMIT, RECENT_MAX_LIMIT) });

export const RECOMMENDATIONS_DEFAULT_LIMIT = 10;
export const recommendationsQuerySchema = z.object({ limit: limitField(RECOMMENDATIONS_DEFAULT_LIMIT, 50) });


export const recentBookingSchema = z.object({
  id: z.int(),
  date: z.iso.date(),
  timeSlot: z.enum(TIME_SLOTS),
  status: z.enum(ORDER_STATUSES),
  numberOfPeople: z.int(),
  totalPrice: z.int(),
  createdAt: z.iso.datetime({ offset: true }),
  guide: z.object({ id: z.int(), name: z.string(), city: z.string().nullable(), avatarUrl: z.string().nullable() }),
});
export type RecentBooking = z.infer<typeof recentBookingSchema>;

export const recentOrderSchema = z.object({
  id: z.int(),
  date: z.iso.date(),
  timeSlot: z.enum(TIME_SLOTS),
  status: z.enum(ORDER_STATUSES),
  numberOfPeople: z.int(),
  totalPrice: z.int(),
  createdAt: z.iso.datetime({ offset: true }),
  traveler: z.object({ id: z.int(), name: z.string() }),
});
export type RecentOrderView = z.infer<typeof recentOrderSchema>;

export const recentBookingsData = z.object({ bookings: z.array(recentBookingSchema) });
export const recentOrdersData = z.object({ orders: z.array(recentOrderSchema) });

export const recommendationSchema = guideCardSchema.extend({
  reason: z.enum(['city', 'language', 'city_and_language', 'top_rated']).describe('Why the guide is suggested'),
});
export type Recommendation = GuideCard & { reason: 'city' | 'language' | 'city_and_language' | 'top_rated' };
export const recommendationsData = z.object({ recommendations: z.array(recommendationSchema) });
