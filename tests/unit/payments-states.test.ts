import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAYMENT_STATUSES, type PaymentStatus } from '~/lib/payments';
import { moneyEffectOf, nextPayment, refundable, type PaymentFacts, type PaymentTransition } from '~/services/payments/payment-states.server';

const unpaid: PaymentFacts = { status: 'unpaid', amount: 3000, capturedAmount: 0, refundedAmount: 0 };

describe('payment state machine (docs/decisions/040)', () => {
  it('walks unpaid → authorised → captured → partly refunded → refunded', () => {
    const authorised = { ...unpaid, ...nextPayment(unpaid, { kind: 'authorise' })! };
    expect(authorised.status).toBe('authorised');
    const captured = { ...authorised, ...nextPayment(authorised, { kind: 'capture' })! };
    expect(captured).toMatchObject({ status: 'captured', capturedAmount: 3000 });
    const partly = { ...captured, ...nextPayment(captured, { kind: 'refund', amount: 1500 })! };
    expect(partly).toMatchObject({ status: 'partly_refunded', refundedAmount: 1500 });
    expect(refundable(partly)).toBe(1500);
    expect(nextPayment(partly, { kind: 'refund', amount: 1501 })).toBeNull();
    expect(nextPayment(partly, { kind: 'refund', amount: 1500 })).toMatchObject({ status: 'refunded', refundedAmount: 3000 });
  });

  it('refuses what does not apply: a capture before authorisation, a second authorisation, a void after capture, expiry once paid', () => {
    expect(nextPayment(unpaid, { kind: 'capture' })).toBeNull();
    expect(nextPayment({ ...unpaid, status: 'authorised' }, { kind: 'authorise' })).toBeNull();
    expect(nextPayment({ ...unpaid, status: 'captured', capturedAmount: 3000 }, { kind: 'void' })).toBeNull();
    expect(nextPayment({ ...unpaid, status: 'authorised' }, { kind: 'expire' })).toBeNull();
    expect(nextPayment({ ...unpaid, status: 'expired' }, { kind: 'authorise' })).toBeNull();
  });

  it('any sequence of transitions keeps 0 ≤ refunded ≤ captured ≤ amount and never leaves a final state', () => {
    const transition: fc.Arbitrary<PaymentTransition> = fc.oneof(
      fc.constantFrom<PaymentTransition>({ kind: 'authorise' }, { kind: 'fail' }, { kind: 'expire' }, { kind: 'capture' }, { kind: 'void' }),
      fc.integer({ min: -5, max: 4000 }).map((amount) => ({ kind: 'refund' as const, amount })),
    );
    const final: PaymentStatus[] = ['refunded', 'voided', 'failed', 'expired'];
    fc.assert(
      fc.property(fc.array(transition, { maxLength: 20 }), (transitions) => {
        let p = unpaid;
        for (const t of transitions) {
          const change = nextPayment(p, t);
          if (final.includes(p.status)) expect(change).toBeNull();
          if (change) p = { ...p, ...change };
          expect(PAYMENT_STATUSES).toContain(p.status);
          expect(0 <= p.refundedAmount && p.refundedAmount <= p.capturedAmount && p.capturedAmount <= p.amount).toBe(true);
        }
      }),
    );
  });

  it('names the money side effect of each order transition', () => {
    expect(moneyEffectOf('book', null)).toBe('open_checkout');
    expect(moneyEffectOf('confirm', { status: 'unpaid' })).toBe('payment_required');
    expect(moneyEffectOf('confirm', { status: 'authorised' })).toBe('capture');
    expect(moneyEffectOf('decline', { status: 'authorised' })).toBe('void');
    expect(moneyEffectOf('expire', { status: 'unpaid' })).toBe('none');
    expect(moneyEffectOf('cancel', { status: 'authorised' })).toBe('void');
    expect(moneyEffectOf('cancel', { status: 'captured' })).toBe('refund_by_terms');
    expect(moneyEffectOf('complete', { status: 'captured' })).toBe('settle');
    // Completed before the capture ran: settled once it has (the settle step retries until then).
    expect(moneyEffectOf('complete', { status: 'authorised' })).toBe('settle');
    expect(moneyEffectOf('refund', { status: 'partly_refunded' })).toBe('refund_rest');
    expect(moneyEffectOf('refund', { status: 'refunded' })).toBe('none');
  });
});
