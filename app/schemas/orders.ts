import { z } from 'zod';
import { paginationSchema } from './pagination';
import { blank, textField } from './field-rules';

/** Orders (SPEC §3 Order, §7 Orders): the shapes the API answers and the pages render, and the inputs. */
import { ORDER_STATUSES as ORDER_STATUS_VALUES } from '~/lib/order-status';
import { TIME_SLOTS } from '~/lib/time-slots';
import { orderPaymentSchema, paymentHistoryItemSchema } from './payments';
export { ORDER_STATUS_VALUES };
export type OrderStatus = (typeof ORDER_STATUS_VALUES)[number];

/**
 * The statuses in which an order holds its guide's slot: nobody else can book it and the guide cannot close it.
 * Only cancelling (and refunding a cancelled order) frees a slot; a completed tour keeps it (issue 19). The partial
 * unique index `orders_no_double_booking` (db/schema.ts, migration 0010) lists the same statuses.
 */
export const SLOT_HOLDING_STATUSES = ['pending', 'confirmed', 'completed'] as const satisfies readonly OrderStatus[];

/** What a viewer may do to an order (app/services/booking/order-state.server.ts decides when). */
export const ORDER_ACTIONS = ['confirm', 'decline', 'cancel', 'complete', 'refund'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

export const ORDER_PAGE_SIZE = 10;

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (blank(v) ? undefined : v), schema.optional());
const pageNumber = (max: number) =>
  z.coerce.number({ error: 'validation.invalid' }).int({ error: 'validation.invalid' }).min(1, { error: 'validation.invalid' }).max(max, { error: 'validation.invalid' });

export const orderListQuerySchema = z.object({
  status: optional(z.enum(ORDER_STATUS_VALUES, { error: 'validation.invalid' })),
  page: optional(pageNumber(100_000)).transform((v) => v ?? 1),
  limit: optional(pageNumber(Number.MAX_SAFE_INTEGER)).transform((v) => Math.min(v ?? ORDER_PAGE_SIZE, 100)),
});
export type OrderListQuery = z.output<typeof orderListQuerySchema>;

export const MEETING_POINT_MAX = 200;
/** A phone number as people write it: digits with spaces, dashes, brackets, an optional leading +; 7–15 digits. */
const PHONE_PATTERN = /^\+?[0-9][0-9 ()-]{5,22}$/;
const PHONE_DIGITS = { min: 7, max: 15 };

/**
 * Where and how the traveler meets the guide (issue 35): the guide gives both when confirming a booking; the
 * traveler reads them on the order, in the confirmation mail and on the offline trip card.
 */
export const meetingDetailsFields = {
  meetingPoint: textField('validation.meetingPointRequired', { multiline: true })
    .trim()
    .min(1, { error: 'validation.meetingPointRequired' })
    .max(MEETING_POINT_MAX, { error: 'validation.meetingPointTooLong' }),
  guidePhone: textField('validation.phoneRequired')
    .normalize('NFKC')
    .trim()
    .min(1, { error: 'validation.phoneRequired' })
    .refine(
      (v) => PHONE_PATTERN.test(v) && (v.match(/[0-9]/g)?.length ?? 0) >= PHONE_DIGITS.min && (v.match(/[0-9]/g)?.length ?? 0) <= PHONE_DIGITS.max,
      { error: 'validation.phoneInvalid' },
    ),
};
export type MeetingDetails = { meetingPoint: string; guidePhone: string };

/**
 * PUT /api/v1/orders/{id}: `{status}` or `{travelerCompleted: true}` / `{guideCompleted: true}`; a confirmation may
 * carry the meeting details (both or neither: API clients of v1 confirm without them).
 */
export const orderUpdateSchema = z
  .object({
    status: z.enum(['confirmed', 'cancelled', 'completed', 'refunded'], { error: 'validation.invalid' }).optional(),
    travelerCompleted: z.literal(true, { error: 'validation.invalid' }).optional(),
    guideCompleted: z.literal(true, { error: 'validation.invalid' }).optional(),
    meetingPoint: meetingDetailsFields.meetingPoint.optional().describe('Where the traveler meets the guide (with status "confirmed" only)'),
    guidePhone: meetingDetailsFields.guidePhone.optional().describe('The guide’s phone for the tour day (with status "confirmed" only)'),
  })
  .refine((v) => [v.status, v.travelerCompleted, v.guideCompleted].filter((x) => x !== undefined).length === 1, {
    error: 'validation.invalid',
  })
  .refine((v) => (v.meetingPoint === undefined) === (v.guidePhone === undefined) && (v.meetingPoint === undefined || v.status === 'confirmed'), {
    error: 'validation.meetingWithConfirm',
  });
export type OrderUpdate = z.output<typeof orderUpdateSchema>;

/** The order page's buttons: one form per action. */
export const orderActionFormSchema = z.object({ intent: z.enum(ORDER_ACTIONS, { error: 'validation.invalid' }) });

/** The guide's confirmation on the order page: the meeting details are asked for (the API's are optional). */
export const orderConfirmFormSchema = z.object({ intent: z.literal('confirm'), ...meetingDetailsFields });

const isoDateTime = z.iso.datetime({ offset: true });

export const orderEventSchema = z.object({
  action: z.string(),
  fromStatus: z.enum(ORDER_STATUS_VALUES).nullable(),
  toStatus: z.enum(ORDER_STATUS_VALUES),
  actorId: z.int().nullable(),
  actorRole: z.enum(['traveler', 'guide', 'admin', 'system']),
  actorName: z.string().nullable(),
  at: isoDateTime,
});
export type OrderEventView = z.output<typeof orderEventSchema>;

export const orderSchema = z.object({
  id: z.int(),
  userId: z.int().describe('The traveler'),
  travelerId: z.int(),
  travelerName: z.string(),
  guideId: z.int(),
  guideUserId: z.int(),
  guideName: z.string(),
  date: z.string().describe('YYYY-MM-DD, the tour day in Taiwan'),
  timeSlot: z.enum(TIME_SLOTS),
  numberOfPeople: z.int(),
  note: z.string().nullable().describe('The traveler’s note; its guide reads it with contact details masked until the pair has a confirmed order'),
  noteMasked: z.boolean().describe('True when contact details in the note are hidden from the caller (docs/decisions/034-contact-masking.md)'),
  status: z.enum(ORDER_STATUS_VALUES),
  travelerCompleted: z.boolean(),
  guideCompleted: z.boolean(),
  totalPrice: z.int().describe('NT$ charged for the whole group: the guide’s profile price for one slot (docs/decisions/010)'),
  meetingPoint: z.string().nullable().describe('Where to meet, given by the guide on confirming (null before, or when confirmed without)'),
  guidePhone: z.string().nullable().describe('The guide’s phone for the tour day, given on confirming'),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  deletedAt: isoDateTime.nullable(),
});
export type OrderView = z.output<typeof orderSchema>;

export const orderData = z.object({ order: orderSchema });
/** A booking's answer (POST /api/v1/orders): the order and its payment (null for a free tour). */
export const bookedOrderData = z.object({ order: orderSchema, payment: orderPaymentSchema.nullable() });
export const orderDetailData = z.object({
  order: orderSchema,
  events: z.array(orderEventSchema),
  actions: z.array(z.enum(ORDER_ACTIONS)).describe('What the caller may do now'),
  payment: orderPaymentSchema.nullable().describe('The newest payment attempt (null: a free tour, or booked before payments)'),
  paymentHistory: z.array(paymentHistoryItemSchema).describe('What happened to the order’s money, oldest first'),
  refund: z
    .object({
      share: z.union([z.literal(0), z.literal(50), z.literal(100)]).describe('Percent of the total the traveler gets back'),
      amount: z.int().describe('NT$ the traveler gets back'),
      basis: z
        .enum(['refund', 'authorisation', 'unpaid'])
        .describe('refund: money charged comes back by the booking terms; authorisation: the card was only authorised and is released in full; unpaid: nothing was paid'),
      grace: z.literal(true).optional().describe('All of it under the grace period: cancelled by the traveler within 24 hours of booking, the tour at least 48 hours away'),
    })
    .nullable()
    .describe(
      'When the caller may cancel or decline now: what the traveler gets back under the booking terms (more than 72 hours before the slot begins all, 72–24 hours half, later nothing; all when the guide cancels or declines; all within 24 hours of booking while the tour is at least 48 hours away)',
    ),
});
export const orderListData = z.object({
  orders: z.array(orderSchema),
  pagination: paginationSchema,
});
