import { z } from 'zod';
import { CHAT_REPORT_NOTE_MAX, CHAT_REPORT_REASONS } from '~/lib/chat-report-reasons';
import { blank, messageText, textField } from './field-rules';

/** Conversations and their messages (issue 23; docs/decisions/022-chat-delivery.md). */
export const MESSAGE_MAX = 2000;
export const MESSAGE_PAGE_SIZE = 30;
export const CLIENT_ID_MAX = 64;

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (blank(v) ? undefined : v), schema.optional());
const positiveId = z.coerce.number({ error: 'validation.invalid' }).int({ error: 'validation.invalid' }).min(1, { error: 'validation.invalid' }).max(2_147_483_647, { error: 'validation.invalid' });

/** A message's text: up to 2,000 characters, line breaks kept, shown as plain text. */
export const messageTextField = messageText('chat.errors.textRequired')
  .trim()
  .min(1, { error: 'chat.errors.textRequired' })
  .max(MESSAGE_MAX, { error: 'chat.errors.textTooLong' });

/** The sender's own id for a message (a UUID from the browser); sending the same one twice stores one message. */
export const clientIdField = z
  .string({ error: 'validation.invalid' })
  .trim()
  .min(1, { error: 'validation.invalid' })
  .max(CLIENT_ID_MAX, { error: 'validation.invalid' })
  .regex(/^[\w.:-]+$/, { error: 'validation.invalid' });

/** POST /api/v1/chats and the "Ask a question" form: the guide, the order it is about (if any), the first message. */
export const chatStartSchema = z.object({
  guideId: positiveId,
  orderId: optional(positiveId),
  message: messageTextField,
  clientId: optional(clientIdField),
});
export type ChatStart = z.output<typeof chatStartSchema>;

/** The order page's "message" form: either party of the order writes to the other (the order is in the URL). */
export const orderChatFormSchema = z.object({ orderId: positiveId, message: messageTextField, clientId: optional(clientIdField) });

/** A guide writes to a board post's author (the post page's "Message the traveler" form, and the API). */
export const chatStartFromPostSchema = z.object({
  boardPostId: positiveId,
  message: messageTextField,
  clientId: optional(clientIdField),
});
export type ChatStartFromPost = z.output<typeof chatStartFromPostSchema>;
/** The post page's "Message the traveler" form (the post is the page's). */
export const postMessageFormSchema = chatStartFromPostSchema.pick({ message: true });

/**
 * POST /api/v1/chats: a traveler names a guide (`guideId`, `orderId?`), or a guide names a board post
 * (`boardPostId`), whose author they write to, or either party of an order names only the order (`orderId`).
 * At most one of `guideId` and `boardPostId`.
 */
export const chatOpenSchema = z
  .object({
    guideId: optional(positiveId),
    orderId: optional(positiveId),
    boardPostId: optional(positiveId),
    message: messageTextField,
    clientId: optional(clientIdField),
  })
  .superRefine((v, ctx) => {
    // Either party of an order may name only the order (issue 35).
    if (v.guideId === undefined && v.boardPostId === undefined && v.orderId !== undefined) return;
    if ((v.guideId === undefined) === (v.boardPostId === undefined)) {
      ctx.addIssue({ code: 'custom', path: [v.guideId === undefined ? 'guideId' : 'boardPostId'], message: 'chat.errors.guideOrPost' });
    }
    if (v.boardPostId !== undefined && v.orderId !== undefined) ctx.addIssue({ code: 'custom', path: ['orderId'], message: 'chat.errors.guideOrPost' });
  });

/** POST /api/v1/chats/{id}/messages and the send form (a form without JS gets its clientId from the page). */
export const messageSendSchema = z.object({ text: messageTextField, clientId: clientIdField });

/** GET /api/v1/chats/{id}/messages?after&before&limit: after = catch-up from the last id a client has; before = older page. */
export const messageListQuerySchema = z.object({
  after: optional(positiveId),
  before: optional(positiveId),
  limit: optional(positiveId).transform((v) => Math.min(v ?? MESSAGE_PAGE_SIZE, 100)),
});
export type MessageListQuery = z.output<typeof messageListQuerySchema>;

/** Why a message is reported (issue 35): one of the fixed list. */
export const reportReasonField = z.enum(CHAT_REPORT_REASONS, { error: 'chat.errors.reportReasonRequired' });
/** The reporter's own words: optional, required when the reason is "other". */
const reportNoteField = optional(textField('validation.invalid', { multiline: true }).trim().max(CHAT_REPORT_NOTE_MAX, { error: 'chat.errors.reportNoteTooLong' }));
function requireNoteForOther(v: { reasonCode?: string; reason?: string }, ctx: z.RefinementCtx) {
  if (v.reasonCode === 'other' && !v.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'chat.errors.reportNoteRequired' });
}

/**
 * POST /api/v1/messages/{id}/report: `reasonCode` (spam, harassment, offPlatform, other) and `reason`, the
 * reporter's words (required with "other"). A body without `reasonCode` (clients before issue 35) is kept with its
 * `reason` alone.
 */
export const messageReportSchema = z.object({ reasonCode: optional(reportReasonField), reason: reportNoteField }).superRefine(requireNoteForOther);

const isoDateTime = z.iso.datetime({ offset: true });

export const chatMessageSchema = z.object({
  id: z.int(),
  chatId: z.int(),
  senderId: z.int(),
  clientId: z.string().nullable(),
  /** The text as the reader may see it: contact details masked until the booking is confirmed. */
  text: z.string(),
  masked: z.boolean(),
  /** An admin hid it after a report: participants get an empty text and show a notice instead. */
  hidden: z.boolean(),
  createdAt: isoDateTime,
  readAt: isoDateTime.nullable(),
});
export type ChatMessageView = z.output<typeof chatMessageSchema>;

export const chatPartySchema = z.object({ id: z.int(), name: z.string(), avatar: z.string().nullable(), type: z.enum(['traveler', 'guide', 'admin']) });

export const chatSummarySchema = z.object({
  id: z.int(),
  travelerId: z.int(),
  guideId: z.int(),
  orderId: z.int().nullable(),
  /** The other participant (for an admin reading, the guide). */
  other: chatPartySchema,
  lastMessage: chatMessageSchema.nullable(),
  lastMessageAt: isoDateTime.nullable(),
  unreadCount: z.int().min(0),
  /** Contact details are masked in this conversation (no confirmed order between the two yet). */
  masking: z.boolean(),
  blocked: z.boolean(),
  /** The reader may send (a participant, not blocked). */
  canSend: z.boolean(),
});
export type ChatSummary = z.output<typeof chatSummarySchema>;

export const chatListData = z.object({ chats: z.array(chatSummarySchema), unreadCount: z.int().min(0) });
export const chatData = z.object({ chat: chatSummarySchema, message: chatMessageSchema.nullable() });
export const messageListData = z.object({ messages: z.array(chatMessageSchema), hasMore: z.boolean() });
export const messageData = z.object({ message: chatMessageSchema });
export const chatReadData = z.object({ chatId: z.int(), read: z.int().min(0), unreadCount: z.int().min(0) });
export const chatBlockData = z.object({ chatId: z.int(), blocked: z.boolean() });
export const messageReportData = z.object({ messageId: z.int(), reported: z.boolean() });

/** Socket events (SPEC §3 Socket events, issue 23), sent to the rooms `user_{id}` of the two participants. */
export const CHAT_EVENTS = { newMessage: 'new_message', messageRead: 'message_read' } as const;
export interface MessageReadEvent {
  chatId: number;
  readerId: number;
  /** Every message up to this id sent to the reader is read. */
  upToId: number;
  readAt: string;
}

/** POST /api/v1/chats/{id}/block {blocked}: true (the default) blocks, false lifts the caller's block. */
export const chatBlockSchema = z.object({
  blocked: optional(z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')])).transform((v) => v ?? true),
});

/** The forms of a conversation page: send, block (asked first, then `confirmed=yes`), unblock, report one message. */
export const chatPageFormSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('send'), text: messageTextField, clientId: clientIdField }),
  z.object({ intent: z.literal('block'), confirmed: z.literal('yes').optional() }),
  z.object({ intent: z.literal('unblock') }),
  // The 檢舉 button asks first (issue 35): `report` opens the reason form, `reportConfirm` sends it.
  z.object({ intent: z.literal('report'), messageId: positiveId }),
  z.object({ intent: z.literal('reportConfirm'), messageId: positiveId, reasonCode: reportReasonField, reason: reportNoteField }),
]).superRefine((v, ctx) => {
  if (v.intent === 'reportConfirm') requireNoteForOther(v, ctx);
});
