import { describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { maskAccountNumber, normaliseAccountDigits, payoutAccountOf, savePayoutAccount } from '~/services/payments/payout-accounts.server';
import { createGuide } from '~server/seed/factories';
import { testDriver, useTestDatabase } from '../support/test-database';

useTestDatabase();

describe(`guide payout accounts (${testDriver})`, () => {
  it('normalises and masks account numbers', () => {
    expect(normaliseAccountDigits(' ０１２-3456 7890 ')).toBe('01234567890');
    expect(maskAccountNumber('01234567890')).toBe('•••••••7890');
    expect(maskAccountNumber('1234')).toBe('1234');
  });

  it('saves, replaces and reads back only the masked number; refuses malformed codes and numbers', async () => {
    const guide = await createGuide();
    expect(await payoutAccountOf(getDb(), guide.id)).toBeNull();
    const now = new Date();
    expect(await savePayoutAccount(getDb(), { guideId: guide.id, bankCode: '812', accountNumber: '1234-5678-9012', now })).toMatchObject({
      bankCode: '812',
      accountNumberMasked: '••••••••9012',
    });
    await savePayoutAccount(getDb(), { guideId: guide.id, bankCode: '700', accountNumber: '00011122233', now });
    expect(await payoutAccountOf(getDb(), guide.id)).toMatchObject({ bankCode: '700', accountNumberMasked: '•••••••2233' });
    await expect(savePayoutAccount(getDb(), { guideId: guide.id, bankCode: '81', accountNumber: '12345678', now })).rejects.toThrow(RangeError);
    await expect(savePayoutAccount(getDb(), { guideId: guide.id, bankCode: '812', accountNumber: '12ab5678', now })).rejects.toThrow(RangeError);
  });
});
