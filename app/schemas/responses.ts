import { z } from 'zod';
import { ACCOUNT_TYPES } from '~/lib/account-types';
import { GROUP_SIZE_MAX, GROUP_SIZE_MIN } from '~/lib/group-size';
import { paginationSchema } from './pagination';
import { ACCOUNT_STATES } from './user-admin';

/**
 * The shapes of what the API answers (ARCHITECTURE §5), for the OpenAPI document and for the HTTP tests that
 * check real answers against it. The services build these objects; these schemas only describe them.
 */
const isoDateTime = z.iso.datetime({ offset: true });
const nullableDateTime = isoDateTime.nullable();

export { paginationSchema };

export const publicUserSchema = z.object({
  id: z.int(),
  name: z.string(),
  email: z.string(),
  pendingEmail: z
    .string()
    .nullable()
    .describe('A new address waiting for its emailed code; `email` stays the login until it is confirmed'),
  type: z.enum(ACCOUNT_TYPES),
  bio: z.string().nullable(),
  city: z.string().nullable(),
  language: z.array(z.string()).nullable(),
  price: z
    .int()
    .nullable()
    .describe("A guide's price in NT$: one booked slot (morning, afternoon or evening) for the whole group, up to maxGroupSize people"),
  maxGroupSize: z
    .int()
    .min(GROUP_SIZE_MIN)
    .max(GROUP_SIZE_MAX)
    .nullable()
    .describe('The most people one booking of this guide may bring; null for travelers and admins'),
  description: z.string().nullable(),
  headline: z.string().nullable().describe("A guide's one-line headline (中文)"),
  localized: z
    .object({
      en: z.object({ headline: z.string().optional(), description: z.string().optional() }).optional(),
      ja: z.object({ headline: z.string().optional(), description: z.string().optional() }).optional(),
    })
    .describe("A guide's headline and description in English and Japanese"),
  avatar: z.string().nullable().describe('URL of the 100×100 webp avatar, or null for the default picture'),
  locale: z.enum(['zh-TW', 'en', 'ja']),
  status: z.enum(['active', 'inactive', 'suspended']),
  guideStatus: z.enum(['active', 'suspended']).nullable(),
  isEmailVerified: z.boolean(),
  isIdVerified: z.boolean(),
  isVerified: z.boolean(),
  verificationStatus: z.enum(['approved', 'pending']),
  emailVerificationDate: nullableDateTime,
  idVerificationType: z.string().nullable(),
  idVerificationDate: nullableDateTime,
  registerDate: isoDateTime,
  lastLogin: nullableDateTime,
  isBlocked: z.boolean(),
  isArchived: z.boolean(),
});

export const adminUserSchema = publicUserSchema.extend({
  blockedAt: nullableDateTime,
  archivedAt: nullableDateTime,
  accountState: z
    .enum(['active', 'inactive', 'suspended'])
    .describe('The status label: suspended when blocked, inactive until the email is verified, else active (decision 020)'),
});

export const userData = z.object({ user: publicUserSchema });
export const adminUserData = z.object({ user: adminUserSchema });

export const sessionData = z.object({
  token: z.string().describe('Bearer token (JWT) for the Authorization header'),
  user: publicUserSchema,
  expiresAt: isoDateTime.optional(),
});

export const userListData = z.object({
  users: z.array(adminUserSchema),
  pagination: paginationSchema,
  filters: z.object({
    type: z.enum(ACCOUNT_TYPES).nullable(),
    status: z.enum(ACCOUNT_STATES).nullable(),
    search: z.string().nullable(),
  }),
  sorting: z.object({ sortBy: z.string(), sortOrder: z.enum(['asc', 'desc']) }),
});

export const userStatsData = z.object({
  totalOrders: z.int(),
  completedOrders: z.int(),
  averageRating: z.number(),
  totalEarnings: z.int().meta({ description: 'A guide’s earnings from the ledger: the settled net of their completed orders (after the platform’s commission), less refunds after settling; 0 for others' }),
  totalFavorites: z.int(),
  totalReviews: z.int(),
  totalSpent: z.int(),
  currentMonthSpent: z.int(),
  travelerStats: z.object({ bookingCount: z.int(), favoriteGuides: z.int(), reviewCount: z.int() }),
  guideStats: z.object({ serviceHours: z.number(), averageRating: z.number(), isAvailable: z.boolean() }),
});

/** POST /api/v1/auth/forgot-password: the same answer for every address. */
export const passwordResetRequestedData = z.object({ sent: z.literal(true) });

/** POST /api/v1/auth/reset-password: the password is set and every session of the account has ended. */
export const passwordResetData = z.object({ reset: z.literal(true) });

/** The failure envelope every route may answer. */
export const errorEnvelope = z.object({
  success: z.literal(false),
  code: z.string(),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  orderId: z.int().optional().meta({ description: 'ALREADY_BOOKED: the caller’s own order that holds the slot (see it at /orders/{orderId})' }),
  /** The answer's X-Request-Id: quote it to whoever runs the site, it finds the request's log line. */
  requestId: z.string().optional(),
});
