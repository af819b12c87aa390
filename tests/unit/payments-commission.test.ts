import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commissionOf, refundSplitAfterSettlement } from '~/services/payments/commission.server';

describe('commission (docs/decisions/038)', () => {
  it('is the whole percent of the amount rounded down to the NT$', () => {
    expect(commissionOf(3000, 10)).toBe(300);
    expect(commissionOf(1999, 10)).toBe(199);
    expect(commissionOf(1, 99)).toBe(0);
    expect(commissionOf(500, 0)).toBe(0);
    expect(commissionOf(500, 100)).toBe(500);
    expect(() => commissionOf(10, 10.5)).toThrow(RangeError);
    expect(() => commissionOf(-1, 10)).toThrow(RangeError);
  });

  it('refunds of a settled order, in any pieces, take back exactly the settlement (guide net and commission)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200_000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 12 }),
        (settled, percent, weights) => {
          const settledCommission = commissionOf(settled, percent);
          // Cut the settled amount into pieces proportional to the weights (each ≥ 1 where possible).
          const totalWeight = weights.reduce((a, b) => a + b, 0);
          const pieces: number[] = [];
          let left = settled;
          for (const [i, w] of weights.entries()) {
            const piece = i === weights.length - 1 ? left : Math.min(left, Math.max(1, Math.floor((settled * w) / totalWeight)));
            if (piece > 0) pieces.push(piece);
            left -= piece;
          }
          let refunded = 0;
          let fromGuide = 0;
          let fromCommission = 0;
          for (const amount of pieces) {
            const split = refundSplitAfterSettlement({ settled, settledCommission, refundedBefore: refunded, amount });
            expect(split.fromGuide + split.fromCommission).toBe(amount);
            expect(split.fromGuide).toBeGreaterThanOrEqual(0);
            expect(split.fromCommission).toBeGreaterThanOrEqual(0);
            refunded += amount;
            fromGuide += split.fromGuide;
            fromCommission += split.fromCommission;
            // Never more commission taken back than the refunded share of it.
            expect(fromCommission).toBeLessThanOrEqual(Math.ceil((settledCommission * refunded) / settled));
          }
          expect(refunded).toBe(settled);
          expect(fromCommission).toBe(settledCommission);
          expect(fromGuide).toBe(settled - settledCommission);
        },
      ),
    );
  });

  it('refuses a refund larger than what is left of the settlement', () => {
    expect(() => refundSplitAfterSettlement({ settled: 1000, settledCommission: 100, refundedBefore: 600, amount: 401 })).toThrow(RangeError);
  });
});
