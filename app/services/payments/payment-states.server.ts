import type { OrderAction } from '~/schemas/orders';
import type { PaymentStatus } from '~/lib/payments';

/**
 * The payment state machine (issue 32, docs/decisions/040), beside the order's: the one place that says which
 * money event applies to a payment in which state, and what the payment becomes. Pure: the callback handler and
 * the outbox worker both go through `nextPayment`, and anything it refuses is logged and changes nothing (so
 * duplicate and out-of-order callbacks are harmless).
 *
 *   unpaid     → authorised        the provider authorised the card (callback)
 *   unpaid     → failed            the card was declined (callback); a new attempt is a new payment
 *   unpaid     → expired           the payment window passed with no payment
 *   authorised → captured          capture succeeded (the guide confirmed)
 *   authorised → voided            the authorisation was given up (declined, expired, cancelled before capture)
 *   captured, partly_refunded → partly_refunded | refunded   a refund succeeded (refunded < captured | = captured)
 */
export interface PaymentFacts {
  status: PaymentStatus;
  amount: number;
  capturedAmount: number;
  refundedAmount: number;
}

export type PaymentTransition =
  | { kind: 'authorise' }
  | { kind: 'fail' }
  | { kind: 'expire' }
  | { kind: 'capture' }
  | { kind: 'void' }
  | { kind: 'refund'; amount: number };

export type PaymentChange = Pick<PaymentFacts, 'status' | 'capturedAmount' | 'refundedAmount'>;

/** What the payment becomes, or null when the transition does not apply to it now (refused, logged, nothing changes). */
export function nextPayment(payment: PaymentFacts, transition: PaymentTransition): PaymentChange | null {
  const { status, amount, capturedAmount, refundedAmount } = payment;
  switch (transition.kind) {
    case 'authorise':
      return status === 'unpaid' ? { status: 'authorised', capturedAmount, refundedAmount } : null;
    case 'fail':
      return status === 'unpaid' ? { status: 'failed', capturedAmount, refundedAmount } : null;
    case 'expire':
      return status === 'unpaid' ? { status: 'expired', capturedAmount, refundedAmount } : null;
    case 'capture':
      return status === 'authorised' ? { status: 'captured', capturedAmount: amount, refundedAmount } : null;
    case 'void':
      return status === 'authorised' ? { status: 'voided', capturedAmount, refundedAmount } : null;
    case 'refund': {
      if (status !== 'captured' && status !== 'partly_refunded') return null;
      const refunded = refundedAmount + transition.amount;
      if (!Number.isSafeInteger(transition.amount) || transition.amount <= 0 || refunded > capturedAmount) return null;
      return { status: refunded === capturedAmount ? 'refunded' : 'partly_refunded', capturedAmount, refundedAmount: refunded };
    }
  }
}

/** What is left to refund of a payment. */
export const refundable = (payment: PaymentFacts) => (payment.status === 'captured' || payment.status === 'partly_refunded' ? payment.capturedAmount - payment.refundedAmount : 0);

/**
 * The money side effect of each order transition (ARCHITECTURE §8a), given the order's payment as it stands:
 *   book: open a checkout (the slot is held while unpaid) · confirm: capture (an unpaid order cannot be confirmed:
 *   PAYMENT_REQUIRED) · decline, and cancel before capture: void · cancel after capture: refund by the booking
 *   terms (all of it when the guide cancels) and settle what is kept · complete: settle (payable after the hold) ·
 *   the admin's refund: refund what is left.
 */
export type MoneyEffect = 'open_checkout' | 'capture' | 'payment_required' | 'void' | 'refund_by_terms' | 'settle' | 'refund_rest' | 'none';

export function moneyEffectOf(action: OrderAction | 'book' | 'expire', payment: Pick<PaymentFacts, 'status'> | null): MoneyEffect {
  const status = payment?.status;
  switch (action) {
    case 'book':
      return 'open_checkout';
    case 'confirm':
      return status === 'authorised' ? 'capture' : 'payment_required';
    case 'decline':
    case 'expire':
      return status === 'authorised' ? 'void' : 'none';
    case 'cancel':
      return status === 'authorised' ? 'void' : status === 'captured' || status === 'partly_refunded' ? 'refund_by_terms' : 'none';
    case 'complete':
      // A capture still queued (or retried while the provider is down) is settled after it: the step waits for it.
      return status === 'captured' || status === 'partly_refunded' || status === 'authorised' ? 'settle' : 'none';
    case 'refund':
      return status === 'captured' || status === 'partly_refunded' ? 'refund_rest' : 'none';
  }
}
