import { describe, expect, it } from 'vitest';
import { counterFamilies, countEvent, limitName } from '~/services/platform/counters.server';

describe('product counters (metrics, issue 25)', () => {
  it('names a rate limit by its counter key without the subject (no address, no id in a label)', () => {
    expect(limitName('login:account-ip:someone@example.test:198.51.100.7')).toBe('login:account-ip');
    expect(limitName('login:ip:2001:db8::/64')).toBe('login:ip');
    expect(limitName('code:email-change:42')).toBe('code:email-change');
    expect(limitName('chat-send:42')).toBe('chat-send');
    expect(limitName('reset-request:ip:10.0.0.1')).toBe('reset-request:ip');
    expect(limitName('42')).toBe('other');
  });

  it('counts by labels and lists every counter, counted or not', () => {
    const value = (reason: string) =>
      counterFamilies()
        .find((c) => c.name === 'bookings_refused_total')!
        .samples.find(([labels]) => labels.reason === reason)?.[1] ?? 0;
    const before = value('UNIT_TEST_REASON');
    countEvent('bookings_refused_total', { reason: 'UNIT_TEST_REASON' });
    countEvent('bookings_refused_total', { reason: 'UNIT_TEST_REASON' });
    expect(value('UNIT_TEST_REASON') - before).toBe(2);
    expect(counterFamilies().map((c) => c.name)).toEqual(['bookings_created_total', 'bookings_refused_total', 'outbox_deliveries_total', 'rate_limit_refusals_total', 'connections_refused_total', 'payment_events_total', 'payment_actions_total', 'payment_actions_refused_total', 'payment_refunds_in_doubt_total']);
  });
});
