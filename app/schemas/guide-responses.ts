import { z } from 'zod';
import { GROUP_SIZE_MAX, GROUP_SIZE_MIN } from '~/lib/group-size';
import { TIME_SLOTS } from '~/lib/time-slots';
import { paginationSchema, publicUserSchema } from './responses';
import { SUGGESTION_TYPES } from './guide-search';

/** What the guide API answers (issue 9), for the OpenAPI document and the HTTP tests. */
const locale = z.enum(['zh-TW', 'en', 'ja']);

export const guideCardSchema = z.object({
  id: z.int(),
  name: z.string(),
  avatarUrl: z.string().nullable(),
  city: z.string().nullable(),
  languages: z.array(z.string()),
  price: z.int().nullable().describe('NT$ for one booked slot (morning, afternoon or evening), for the whole group up to maxGroupSize people'),
  maxGroupSize: z.int().min(GROUP_SIZE_MIN).max(GROUP_SIZE_MAX).describe('The most people one booking of this guide may bring'),
  bio: z.string().nullable(),
  headline: z.string().nullable().describe("In the reader's language (Accept-Language) when the guide wrote one, else the guide's own"),
  writtenIn: locale.nullable().describe('Set when the text shown is not in the reader’s language: the language it is written in'),
  averageRating: z.number().nullable(),
  reviewCount: z.int().min(0),
  isIdVerified: z.boolean(),
  nextAvailable: z.iso.date().nullable().describe('First day (Taiwan) with an open, unbooked slot'),
});

export const guideListData = z.object({ guides: z.array(guideCardSchema), pagination: paginationSchema });

export const guideDetailData = z.object({
  guide: guideCardSchema.extend({ description: z.string().nullable(), registerDate: z.iso.datetime({ offset: true }) }),
  photos: z.array(z.object({ id: z.int(), url: z.string() })),
  reviews: z.array(
    z.object({
      id: z.int(),
      rating: z.int().min(1).max(5),
      comment: z.string().nullable(),
      createdAt: z.iso.datetime({ offset: true }),
      reviewerName: z.string(),
    }),
  ),
  reviewPagination: paginationSchema,
  ratingDistribution: z.array(z.object({ stars: z.int().min(1).max(5), count: z.int().min(0) })),
  openDays: z.array(
    z.object({
      date: z.iso.date(),
      slots: z.array(z.object({ id: z.int(), timeSlot: z.enum(TIME_SLOTS), price: z.int() })),
    }),
  ),
});

export const suggestionsData = z.object({
  suggestions: z.array(
    z.object({
      type: z.enum(SUGGESTION_TYPES.filter((t) => t !== 'all') as ['guide', 'city']),
      id: z.union([z.int(), z.string()]),
      value: z.string().describe('What the keyword box gets'),
      label: z.string(),
    }),
  ),
});

export const guideProfileData = z.object({
  user: publicUserSchema,
});
