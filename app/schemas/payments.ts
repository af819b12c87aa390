import { z } from 'zod';
import { PAYMENT_PROVIDERS, PAYMENT_STATUSES } from '~/lib/payments';

/** An order's payment as the order page, the booking success page and the API show it (issue 32). */
export const orderPaymentSchema = z.object({
  status: z.enum(PAYMENT_STATUSES).describe('unpaid → authorised → captured → partly_refunded/refunded; voided, failed (declined), expired (docs/decisions/040)'),
  amount: z.int().describe('NT$ of this payment attempt (the order’s total)'),
  captured: z.int().describe('NT$ charged'),
  refunded: z.int().describe('NT$ given back'),
  provider: z.enum(PAYMENT_PROVIDERS),
  providerReference: z.string().nullable().describe('The provider’s trade number, once it has one'),
  authorisedAt: z.iso.datetime({ offset: true }).nullable(),
  capturedAt: z.iso.datetime({ offset: true }).nullable(),
  payBy: z.iso.datetime({ offset: true }).nullable().describe('While unpaid: the order expires and frees its slot at this time'),
  checkoutUrl: z.string().nullable().describe('While the traveler may (still, or again) pay: the checkout page to open in a browser'),
});
export type OrderPaymentView = z.output<typeof orderPaymentSchema>;

/** One step of an order's payment timeline (the order page, the receipt, GET /api/v1/orders/{id}). */
export const PAYMENT_HISTORY_KINDS = ['declined', 'authorised', 'captured', 'voided', 'refunded', 'expired'] as const;
export const paymentHistoryItemSchema = z.object({
  kind: z.enum(PAYMENT_HISTORY_KINDS),
  at: z.iso.datetime({ offset: true }),
  amount: z.int().describe('NT$ the step moved (the card’s amount; for a refund, what was given back)'),
});
export type PaymentHistoryItem = z.output<typeof paymentHistoryItemSchema>;
export type PaymentHistoryKind = PaymentHistoryItem['kind'];
