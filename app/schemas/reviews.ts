import { z } from 'zod';
import { paginationSchema } from './pagination';
import { blank, textField } from './field-rules';

/** Reviews (SPEC §3 Review, §5 Review, §7 Reviews): the inputs the order page, the admin page and the API share. */
export const REVIEW_COMMENT_MAX = 1000;
export const REVIEW_REASON_MAX = 500;
export const ADMIN_REVIEW_PAGE_SIZE = 20;
export const REVIEW_ROLE_VALUES = ['traveler', 'guide'] as const;
export const REVIEW_DIRECTIONS = ['received', 'given'] as const;

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (blank(v) ? undefined : v), schema.optional());

const rating = z.coerce
  .number({ error: 'reviews.errors.ratingRange' })
  .int({ error: 'reviews.errors.ratingRange' })
  .min(1, { error: 'reviews.errors.ratingRange' })
  .max(5, { error: 'reviews.errors.ratingRange' });

/** POST /api/v1/orders/{id}/reviews and the order page's form. `revieweeId`, when sent, must be the computed one. */
export const reviewCreateSchema = z.object({
  rating: z.preprocess((v) => (blank(v) ? undefined : v), rating.describe('1–5 stars')),
  comment: optional(
    textField('validation.invalid', { multiline: true }).trim().max(REVIEW_COMMENT_MAX, { error: 'reviews.errors.commentTooLong' }),
  ),
  revieweeId: optional(z.coerce.number({ error: 'validation.invalid' }).int({ error: 'validation.invalid' }).positive({ error: 'validation.invalid' }))
    .describe('The guide for a traveler, the order’s traveler for a guide; computed when left out, 400 when it differs'),
  userId: optional(z.coerce.number({ error: 'validation.invalid' }).int({ error: 'validation.invalid' }).positive({ error: 'validation.invalid' }))
    .describe('The reviewer (sent by the original client): must be the caller'),
});
export type ReviewCreateInput = z.output<typeof reviewCreateSchema>;

/** PATCH /api/v1/reviews/{id}/hide and the admin page's hide form: a reason is required to hide. */
export const reviewHideSchema = z
  .object({
    isHidden: z.preprocess(
      (v) => (v === 'true' || v === '1' || v === 1 ? true : v === 'false' || v === '0' || v === 0 ? false : v),
      z.boolean({ error: 'validation.invalid' }),
    ),
    hiddenReason: optional(textField('validation.invalid').trim().max(REVIEW_REASON_MAX, { error: 'reviews.errors.reasonTooLong' })),
  })
  .refine((v) => !v.isHidden || !!v.hiddenReason, { error: 'reviews.errors.reasonRequired', path: ['hiddenReason'] });
export type ReviewHideInput = z.output<typeof reviewHideSchema>;

/** GET /api/v1/users/{id}/reviews: `type` is the direction, `role` the user's part in the orders. */
export const userReviewsQuerySchema = z.object({
  type: optional(z.enum(REVIEW_DIRECTIONS, { error: 'validation.invalid' })).transform((v) => v ?? 'received'),
  role: optional(z.enum(REVIEW_ROLE_VALUES, { error: 'validation.invalid' })),
});
export type UserReviewsQuery = z.output<typeof userReviewsQuerySchema>;

/** GET /api/v1/reviews and /admin/reviews. */
export const adminReviewQuerySchema = z.object({
  keyword: optional(textField('validation.invalid').trim().max(100, { error: 'validation.invalid' })),
  page: optional(z.coerce.number({ error: 'validation.invalid' }).int({ error: 'validation.invalid' }).min(1, { error: 'validation.invalid' }).max(100_000, { error: 'validation.invalid' })).transform(
    (v) => v ?? 1,
  ),
});
export type AdminReviewQuery = z.output<typeof adminReviewQuerySchema>;

/** The admin page's buttons: one form per review and action. */
export const adminReviewActionSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('hide'),
    reviewId: z.coerce.number().int().positive(),
    hiddenReason: z.preprocess(
      (v) => (blank(v) ? undefined : v),
      z.string({ error: 'reviews.errors.reasonRequired' }).trim().min(1, { error: 'reviews.errors.reasonRequired' }).max(REVIEW_REASON_MAX, { error: 'reviews.errors.reasonTooLong' }),
    ),
  }),
  z.object({ intent: z.literal('unhide'), reviewId: z.coerce.number().int().positive() }),
  z.object({ intent: z.literal('delete'), reviewId: z.coerce.number().int().positive() }),
]);

const isoDateTime = z.iso.datetime({ offset: true });

export const reviewSchema = z.object({
  id: z.int(),
  orderId: z.int(),
  reviewerId: z.int(),
  reviewerName: z.string(),
  revieweeId: z.int(),
  revieweeName: z.string(),
  role: z.enum(REVIEW_ROLE_VALUES).describe('The reviewer’s part in the order'),
  rating: z.int().min(1).max(5),
  comment: z.string().nullable(),
  createdAt: isoDateTime,
  isHidden: z.boolean(),
  hiddenReason: z.string().nullable().describe('Only shown to admins and the reviewer'),
});
export type ReviewView = z.output<typeof reviewSchema>;

export const reviewData = z.object({ review: reviewSchema });
export const reviewListData = z.object({ reviews: z.array(reviewSchema) });
export const adminReviewListData = z.object({
  reviews: z.array(reviewSchema),
  pagination: paginationSchema,
});
export const deletedReviewData = z.object({ id: z.int() });
