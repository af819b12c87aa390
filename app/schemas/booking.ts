import { z } from 'zod';
import { blank } from './fields';
import { dateField, timeSlotField } from './availability';

/** Booking (SPEC §3 Booking, §5 Booking, §7 POST /api/v1/orders); one schema for the page and the API. */
const wholeNumber = (message: string, min: number, max: number) =>
  z.preprocess(
    (v) => (blank(v) ? undefined : typeof v === 'string' ? Number(v.trim()) : v),
    z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message }),
  );

const agreed = z.preprocess(
  (v) => v === true || v === 'on' || v === 'true' || v === '1' || v === 1,
  z.literal(true, { error: 'validation.termsRequired' }),
);

export const bookingSchema = z.object({
  guideId: wholeNumber('validation.invalid', 1, 2_147_483_647),
  date: dateField,
  timeSlot: timeSlotField,
  numberOfPeople: wholeNumber('validation.peopleRange', 1, 50),
  note: z.preprocess((v) => (blank(v) ? undefined : v), z.string().trim().max(500, { error: 'validation.noteTooLong' }).optional()),
  termsAccepted: agreed,
  /** API clients send the traveler's id; it must be the caller's own. */
  userId: wholeNumber('validation.invalid', 1, 2_147_483_647).optional(),
  /** The original client's slot price (1500): accepted, never charged (docs/decisions/010-price-rule.md). */
  price: z.union([z.number(), z.string()]).optional(),
});
export type BookingInput = z.output<typeof bookingSchema>;

/** The page's form: one radio value "YYYY-MM-DD|slot" for the chosen slot. */
export const bookingFormSchema = z.object({
  slot: z.preprocess(
    (v) => (blank(v) ? undefined : v),
    z.string({ error: 'validation.slotRequired' }).regex(/^\d{4}-\d{2}-\d{2}\|(morning|afternoon|evening)$/, { error: 'validation.slotRequired' }),
  ),
  numberOfPeople: wholeNumber('validation.peopleRange', 1, 50),
  note: z.preprocess((v) => (blank(v) ? undefined : v), z.string().trim().max(500, { error: 'validation.noteTooLong' }).optional()),
  termsAccepted: agreed,
});
export type BookingForm = z.output<typeof bookingFormSchema>;
