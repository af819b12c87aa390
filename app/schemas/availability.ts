import { z } from 'zod';
import { TIME_SLOTS, type TimeSlot } from '~/lib/time-slots';
import { blank, INPUT_SCHEMA } from './field-rules';

/**
 * Availability slots (SPEC §3 Availability slot, §5 Availability, §7 GET/POST /api/v1/guides/{id}/availability-slots).
 * Pure: the page's form and the API route parse with the same schemas.
 */
export const TIME_SLOT_VALUES = TIME_SLOTS;
export type { TimeSlot };

/** The original client's Chinese labels (SPEC §3) and a few spellings, read as our codes. */
const SLOT_ALIASES: Record<string, TimeSlot> = {
  morning: 'morning',
  afternoon: 'afternoon',
  evening: 'evening',
  上午: 'morning',
  下午: 'afternoon',
  晚上: 'evening',
  午前: 'morning',
  午後: 'afternoon',
  夜: 'evening',
};

export function normaliseTimeSlot(value: unknown): TimeSlot | undefined {
  return typeof value === 'string' ? SLOT_ALIASES[value.trim().toLowerCase()] : undefined;
}

/** How many days ahead a slot may be opened or booked (SPEC §5: today to 60 days ahead). */
export const AVAILABILITY_WINDOW_DAYS = 60;

export const timeSlotField = z
  .preprocess((v) => (blank(v) ? undefined : (normaliseTimeSlot(v) ?? v)), z.enum(TIME_SLOT_VALUES, { error: 'validation.timeSlotInvalid' }))
  .meta({ [INPUT_SCHEMA]: { type: 'string', enum: [...TIME_SLOT_VALUES, '上午', '下午', '晚上'] } });

/** A calendar date YYYY-MM-DD; an ISO date-time keeps its date part (SPEC §3: "date part before T used"). */
export const dateField = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().split('T')[0] : v),
  z
    .string({ error: 'validation.dateInvalid' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'validation.dateInvalid' })
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
      error: 'validation.dateInvalid',
    }),
);

const availableFlag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1'), z.literal('true'), z.literal('false')])
  .optional()
  .transform((v) => v === undefined || v === true || v === 1 || v === '1' || v === 'true');

/** One item of `POST {slots}`: what the original client sent (available always 1, price 1500, a description). */
export const slotItemSchema = z.object({
  date: dateField,
  time_slot: timeSlotField,
  available: availableFlag,
  // Accepted and ignored: the guide's profile price is charged (docs/decisions/010-price-rule.md).
  price: z.union([z.number(), z.string()]).optional(),
  description: z.string().max(200, { error: 'validation.invalid' }).optional(),
});

export const saveSlotsSchema = z.object({
  slots: z.array(slotItemSchema).max(3 * (AVAILABILITY_WINDOW_DAYS + 1), { error: 'validation.invalid' }),
});
export type SaveSlotsInput = z.output<typeof saveSlotsSchema>;

/** The page's form for one day: the date and the ticked slots (none ticked closes the whole day). */
export const daySlotsFormSchema = z.object({
  date: dateField,
  slots: z.preprocess(
    (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
    z.array(timeSlotField),
  ),
});
export type DaySlotsForm = z.output<typeof daySlotsFormSchema>;

export const availabilityQuerySchema = z.object({
  from: z.preprocess((v) => (blank(v) ? undefined : v), dateField.optional()),
  to: z.preprocess((v) => (blank(v) ? undefined : v), dateField.optional()),
});

export const slotSchema = z.object({
  id: z.int(),
  date: z.string().describe('YYYY-MM-DD, a Taiwan calendar date'),
  time_slot: z.enum(TIME_SLOT_VALUES),
  available: z.union([z.literal(0), z.literal(1)]),
  booked: z.boolean().describe('A pending, confirmed or completed order holds this slot'),
  bookable: z
    .boolean()
    .describe('A traveler can book it now: open, not held, and bookings for it have not closed (they close 3 hours before it begins)'),
  hours: z.string().describe('Its hours, Taiwan time: 09:00–12:00, 13:00–17:00 or 18:00–21:00'),
  price: z.int().describe('What one booking of this slot costs the whole group (the guide’s profile price)'),
  description: z.string().nullable(),
});
export type SlotView = z.output<typeof slotSchema>;

export const slotListData = z.object({
  guideId: z.int(),
  from: z.string(),
  to: z.string(),
  slots: z.array(slotSchema),
});
