import { z } from 'zod';
import { GROUP_SIZE_MAX, GROUP_SIZE_MIN } from '~/lib/group-size';
import { blank, idField, messageText, wholeNumber } from './field-rules';
import { dateField, timeSlotField } from './availability';

const agreed = z.preprocess(
  (v) => v === true || v === 'on' || v === 'true' || v === '1' || v === 1,
  z.literal(true, { error: 'validation.termsRequired' }),
);

/**
 * numberOfPeople: GROUP_SIZE_MIN to GROUP_SIZE_MAX here; the booking service then holds it to the guide's own
 * maximum group size (docs/decisions/016-group-size.md), which only it knows.
 */
/** Booking (SPEC §3 Booking, §5 Booking, §7 POST /api/v1/orders); one schema for the page and the API. */
export const bookingSchema = z.object({
  guideId: idField,
  date: dateField,
  timeSlot: timeSlotField,
  numberOfPeople: wholeNumber(GROUP_SIZE_MIN, GROUP_SIZE_MAX, 'validation.peopleRange'),
  /** Read by the guide, masked until the order is confirmed (docs/decisions/034-contact-masking.md). */
  note: z.preprocess((v) => (blank(v) ? undefined : v), messageText('validation.invalid').trim().max(500, { error: 'validation.noteTooLong' }).optional()),
  termsAccepted: agreed,
  /** API clients send the traveler's id; it must be the caller's own. */
  userId: idField.optional(),
  /** The original client's slot price (1500): accepted, never charged (docs/decisions/010-price-rule.md). */
  price: z.union([z.number(), z.string()]).optional(),
});
export type BookingInput = z.output<typeof bookingSchema>;

/**
 * The page's form, derived from the API's schema: people, note and terms are the API's own fields, and the chosen
 * slot, one radio value "YYYY-MM-DD|slot", is read with the API's date and slot fields (so "2026-02-30|morning"
 * fails the same real-calendar check as the API's date, on the slot field).
 */
const apiSlot = bookingSchema.pick({ date: true, timeSlot: true });
const slotChoice = z.preprocess(
  (v) => (blank(v) ? undefined : v),
  z.string({ error: 'validation.slotRequired' }).transform((value, ctx) => {
    const [date, timeSlot, ...rest] = value.split('|');
    const parsed = apiSlot.safeParse({ date, timeSlot });
    if (rest.length > 0 || timeSlot === undefined || !parsed.success) {
      ctx.addIssue({ code: 'custom', message: parsed.error?.issues[0]?.message ?? 'validation.slotRequired' });
      return z.NEVER;
    }
    return parsed.data;
  }),
);
export const bookingFormSchema = bookingSchema.pick({ numberOfPeople: true, note: true, termsAccepted: true }).extend({ slot: slotChoice });
export type BookingForm = z.output<typeof bookingFormSchema>;
