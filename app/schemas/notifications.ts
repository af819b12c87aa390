import { z } from 'zod';
import { paginationSchema } from './pagination';
import { blank } from './field-rules';

/** Notifications (SPEC §3 Notification, §7 Notifications). */
export const NOTIFICATION_PAGE_SIZE = 20;

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (blank(v) ? undefined : v), schema.optional());
const pageNumber = (max: number) =>
  z.coerce.number({ error: 'validation.invalid' }).int({ error: 'validation.invalid' }).min(1, { error: 'validation.invalid' }).max(max, { error: 'validation.invalid' });

export const notificationListQuerySchema = z.object({
  page: optional(pageNumber(100_000)).transform((v) => v ?? 1),
  limit: optional(pageNumber(Number.MAX_SAFE_INTEGER)).transform((v) => Math.min(v ?? NOTIFICATION_PAGE_SIZE, 100)),
  unread: optional(z.enum(['0', '1', 'true', 'false'])).transform((v) => v === '1' || v === 'true'),
});
export type NotificationListQuery = z.output<typeof notificationListQuerySchema>;

/** PUT /api/v1/notifications/read-all {userId}: the id is optional, and must be the caller's own. */
export const readAllSchema = z.object({ userId: z.coerce.number().int().positive().optional() });

export const notificationFormSchema = z.object({
  intent: z.enum(['read', 'delete', 'readAll'], { error: 'validation.invalid' }),
  /** The notification's id as sent; the route reads it with the one id rule (app/lib/ids.ts): none is 404. */
  id: optional(z.string()),
});

const isoDateTime = z.iso.datetime({ offset: true });
export const notificationSchema = z.object({
  id: z.int(),
  type: z.string(),
  title: z.string(),
  body: z.string().nullable(),
  link: z.string().nullable(),
  isRead: z.boolean(),
  readAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
});
export type NotificationView = z.output<typeof notificationSchema>;

export const notificationListData = z.object({
  notifications: z.array(notificationSchema),
  unreadCount: z.int().min(0),
  pagination: paginationSchema,
});
export const notificationData = z.object({ notification: notificationSchema });
export const unreadCountData = z.object({ count: z.int().min(0) });
