import { z } from 'zod';
import { CITY_CODES } from '~/lib/cities';
import { LANGUAGE_CODES } from '~/lib/languages';
import { paginationSchema } from './pagination';
import { blank, cityField, languagesField, messageText, textField } from './field-rules';

/** The message board (issue 23): travelers' trip requests and questions, public to read. */
export const BOARD_PAGE_SIZE = 10;
export const BOARD_POST_MAX = 2000;
/** A public reply under a post. */
export const BOARD_REPLY_MAX = 1000;

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (blank(v) ? undefined : v), schema.optional());
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'validation.dateInvalid' });

export const boardPostSchema = z
  .object({
    city: cityField,
    languages: languagesField,
    startDate: optional(isoDay),
    endDate: optional(isoDay),
    body: messageText('board.errors.bodyRequired')
      .trim()
      .min(1, { error: 'board.errors.bodyRequired' })
      .max(BOARD_POST_MAX, { error: 'board.errors.bodyTooLong' }),
  })
  .refine((v) => !v.startDate || !v.endDate || v.startDate <= v.endDate, { error: 'board.errors.datesOrder', path: ['endDate'] });
export type BoardPostInput = z.output<typeof boardPostSchema>;

export const boardListQuerySchema = z.object({
  city: optional(z.enum(CITY_CODES)).catch(undefined),
  language: optional(z.enum(LANGUAGE_CODES)).catch(undefined),
  page: optional(z.coerce.number().int().min(1).max(100_000)).catch(undefined).transform((v) => v ?? 1),
});
export type BoardListQuery = z.output<typeof boardListQuerySchema>;

export const boardHideSchema = z.object({
  reason: textField('board.errors.reasonRequired').trim().min(1, { error: 'board.errors.reasonRequired' }).max(300, { error: 'validation.invalid' }),
});

/** The board page's forms: which one was sent (post, delete one's own post, hide one), then its own schema. */
export const boardIntentSchema = z.object({ intent: z.enum(['post', 'delete', 'hide'], { error: 'validation.invalid' }) });
export const boardPostIdFormSchema = z.object({ postId: z.coerce.number().int().min(1).max(2_147_483_647) });
export const boardHideFormSchema = boardPostIdFormSchema.extend(boardHideSchema.shape);

/** A public reply under a post (guides, and the post's author). */
export const boardReplySchema = z.object({
  body: messageText('board.errors.replyRequired')
    .trim()
    .min(1, { error: 'board.errors.replyRequired' })
    .max(BOARD_REPLY_MAX, { error: 'board.errors.replyTooLong' }),
});
export type BoardReplyInput = z.output<typeof boardReplySchema>;

/** The post page's forms (/board/:postId): reply, delete a reply, hide a reply, edit the post, message its author. */
export const boardReplyIntentSchema = z.object({ intent: z.enum(['reply', 'delete', 'hide', 'edit', 'message'], { error: 'validation.invalid' }) });
export const boardReplyIdFormSchema = z.object({ replyId: z.coerce.number().int().min(1).max(2_147_483_647) });
export const boardReplyHideFormSchema = boardReplyIdFormSchema.extend(boardHideSchema.shape);

const isoDateTime = z.iso.datetime({ offset: true });
export const boardPostViewSchema = z.object({
  id: z.int(),
  authorId: z.int().nullable(),
  authorName: z.string(),
  city: z.string().nullable(),
  languages: z.array(z.string()),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  /** Contact details masked (the stored original is kept for admins). */
  body: z.string(),
  masked: z.boolean(),
  isHidden: z.boolean(),
  hiddenReason: z.string().nullable(),
  createdAt: isoDateTime,
  /** The reader may delete it (its author, or an admin). */
  canDelete: z.boolean(),
  /** The reader may edit it (its author only). */
  canEdit: z.boolean(),
  /** Replies the reader can see. */
  replyCount: z.int(),
});
export type BoardPostView = z.output<typeof boardPostViewSchema>;
export const boardListData = z.object({ posts: z.array(boardPostViewSchema), pagination: paginationSchema });
export const boardPostData = z.object({ post: boardPostViewSchema });

export const boardReplyViewSchema = z.object({
  id: z.int(),
  postId: z.int(),
  authorId: z.int(),
  authorName: z.string(),
  authorType: z.enum(['traveler', 'guide', 'admin']),
  /** Contact details masked, as on the whole board. */
  body: z.string(),
  masked: z.boolean(),
  isHidden: z.boolean(),
  hiddenReason: z.string().nullable(),
  createdAt: isoDateTime,
  canDelete: z.boolean(),
  /** The author is a guide the public may find and book: their page is /guides/{authorId}. */
  authorPublicGuide: z.boolean(),
});
export type BoardReplyView = z.output<typeof boardReplyViewSchema>;
export const boardRepliesData = z.object({ replies: z.array(boardReplyViewSchema) });
export const boardReplyData = z.object({ reply: boardReplyViewSchema });
