/**
 * The platform's commission (issue 32, docs/decisions/038), the one rule: a whole percent of the amount settled,
 * rounded down to the NT$ (the guide keeps the odd dollar), copied onto the order when it is booked.
 */
export function commissionOf(amount: number, percent: number): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`amount ${amount} must be a whole NT$ amount ≥ 0`);
  if (!Number.isInteger(percent) || percent < 0 || percent > 100) throw new RangeError(`percent ${percent} must be a whole number 0..100`);
  return Math.floor((amount * percent) / 100);
}

/**
 * How a refund of a settled order is split between the guide's payable and the platform's commission: in the
 * settlement's own proportion, counted cumulatively (what all refunds so far should have taken from the commission,
 * minus what they took), so several partial refunds that add up to the whole settled amount reverse the settlement
 * exactly, to the dollar, whatever the rounding.
 */
export function refundSplitAfterSettlement(input: {
  /** The settlement's total: guide net + commission. */
  settled: number;
  settledCommission: number;
  /** Refunded from this order since it was settled, before this refund. */
  refundedBefore: number;
  amount: number;
}): { fromGuide: number; fromCommission: number } {
  const { settled, settledCommission, refundedBefore, amount } = input;
  if (amount <= 0 || refundedBefore < 0 || refundedBefore + amount > settled) {
    throw new RangeError(`a refund of ${amount} after ${refundedBefore} does not fit a settlement of ${settled}`);
  }
  const commissionUpTo = (refunded: number) => Math.floor((settledCommission * refunded) / settled);
  const fromCommission = commissionUpTo(refundedBefore + amount) - commissionUpTo(refundedBefore);
  return { fromGuide: amount - fromCommission, fromCommission };
}
