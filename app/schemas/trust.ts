import { z } from 'zod';
import { GUIDE_STATUSES, ID_VERIFICATION_STATUSES, PHOTO_STATUSES, type GuideStatus } from '~/lib/trust-statuses';
import { idField, optional } from './field-rules';

/**
 * Trust (issue 11): guide photos, ID verification, guide standing. The zod schemas the API routes and the
 * web forms both parse with, and the shapes the pages render. Pure: the browser may import it.
 */

/** SPEC §9: photos per guide. */
export const MAX_PHOTOS_PER_GUIDE = 4;
/** SPEC §9 photo compression: 0.5 MB, 1200 px on the longer side, webp. */
export const PHOTO_MAX_BYTES = 500 * 1024;
export const PHOTO_MAX_SIDE = 1200;

/** The documents a person may verify with (SPEC §4 ID verification). */
export const ID_DOCUMENT_TYPES = ['national_id', 'passport', 'resident_certificate', 'tour_guide_license'] as const;
export type IdDocumentType = (typeof ID_DOCUMENT_TYPES)[number];


const id = idField;

/** GET /api/v1/photos?guideId&all=0|1 */
/** The /me gallery's plain forms (POST /me/photos): upload one photo, or delete the ticked ones (`ids`, repeated). */
export const photoGalleryFormSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('upload') }),
  z.object({
    intent: z.literal('delete'),
    ids: z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(idField).min(1, { error: 'trust.photos.noneSelected' })),
  }),
]);

export const photoListQuerySchema = z.object({
  guideId: id,
  all: optional(z.enum(['0', '1', 'true', 'false'], { error: 'validation.invalid' })).transform((v) => v === '1' || v === 'true'),
});

/** PATCH /api/v1/photos/{id} and the review forms. */
export const photoReviewSchema = z.object({
  status: z.enum(['approved', 'rejected'], { error: 'validation.invalid' }),
  reason: optional(z.string({ error: 'validation.invalid' }).trim().max(500, { error: 'validation.tooLong' })),
});

/** /admin/photos filters. */
export const adminPhotoQuerySchema = z.object({
  status: optional(z.enum(PHOTO_STATUSES, { error: 'validation.invalid' })),
  guideId: optional(id),
});

/** POST /api/v1/id-verification (the files come as multipart `front` and `back`). */
export const idApplicationSchema = z.object({
  type: z.enum(ID_DOCUMENT_TYPES, { error: 'trust.idv.errors.type' }),
});

/** A chosen file (conform reads an empty file input as undefined). */
const chosenFile = (message: string) =>
  z.custom<File>((v) => typeof File !== 'undefined' && v instanceof File && v.size > 0, { error: message });

/** The /id-verification form as the browser checks it: the type and both images (the server reads the files itself). */
export const idApplicationFormSchema = idApplicationSchema.extend({
  front: chosenFile('trust.idv.errors.noFront'),
  back: chosenFile('trust.idv.errors.noBack'),
});

/** GET /api/v1/id-verifications?status */
export const idApplicationListQuerySchema = z.object({
  status: optional(z.enum(ID_VERIFICATION_STATUSES, { error: 'validation.invalid' })).transform((v) => v ?? 'pending'),
});

/** POST /api/v1/id-verifications/{id}/reject: notes are required. */
export const idRejectSchema = z.object({
  reviewNotes: z
    .string({ error: 'trust.idv.errors.notesRequired' })
    .trim()
    .min(1, { error: 'trust.idv.errors.notesRequired' })
    .max(1000, { error: 'validation.tooLong' }),
});

/** PUT /api/v1/guides/{id}/status */
export const guideStatusSchema = z.object({
  status: z
    .enum(['active', 'approved', 'suspended'], { error: 'validation.invalid' })
    .transform((v): GuideStatus => (v === 'approved' ? 'active' : v)),
  reason: optional(z.string({ error: 'validation.invalid' }).trim().max(500, { error: 'validation.tooLong' })),
});

/** /admin/guides filters. */
export const adminGuideQuerySchema = z.object({
  standing: optional(z.enum(GUIDE_STATUSES, { error: 'validation.invalid' })),
  search: optional(z.string({ error: 'validation.invalid' }).trim().max(100, { error: 'validation.invalid' })),
});

export const photoSchema = z.object({
  id: z.number().int(),
  guideId: z.number().int(),
  url: z.string(),
  status: z.enum(PHOTO_STATUSES),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
  /** The admin's reason for a rejected photo, shown to its guide; null for any other status or when none was given. */
  rejectionReason: z.string().nullable(),
});
export type PhotoView = z.infer<typeof photoSchema>;

export const idApplicationSchemaOut = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  type: z.string(),
  status: z.enum(ID_VERIFICATION_STATUSES),
  submittedAt: z.string(),
  reviewedAt: z.string().nullable(),
  reviewNotes: z.string().nullable(),
  /** Served only to the applicant and admins, never cached (`Cache-Control: private, no-store`). */
  documents: z.object({ front: z.string().nullable(), back: z.string().nullable() }),
});
export type IdApplicationView = z.infer<typeof idApplicationSchemaOut>;

export const idVerificationStatusSchema = z.object({
  state: z.enum(['not_verified', 'pending', 'verified', 'rejected']),
  isIdVerified: z.boolean(),
  idVerificationType: z.string().nullable(),
  idVerificationDate: z.string().nullable(),
  submittedAt: z.string().nullable(),
  reviewNotes: z.string().nullable(),
  application: idApplicationSchemaOut.nullable(),
});
export type IdVerificationStatusView = z.infer<typeof idVerificationStatusSchema>;

export const adminIdApplicationSchema = idApplicationSchemaOut.extend({
  applicant: z.object({ id: z.number().int(), name: z.string(), email: z.string(), type: z.string() }),
});
export type AdminIdApplicationView = z.infer<typeof adminIdApplicationSchema>;

export const guideStandingSchema = z.object({
  id: z.number().int(),
  status: z.enum(GUIDE_STATUSES),
  reason: z.string().nullable(),
});

/** The photo status label key: pending → under review, approved → approved, anything else → not passed. */
export function photoStatusLabelKey(status: string): string {
  if (status === 'pending_review' || status === 'pending') return 'trust.photos.status.pending';
  if (status === 'approved') return 'trust.photos.status.approved';
  return 'trust.photos.status.rejected';
}
