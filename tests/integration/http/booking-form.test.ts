import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { orderEvents, orders } from '~db/schema';
import { todayInTaipei } from '~/lib/dates';
import { createAvailability, createGuide, createTraveler } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * The booking form is derived from the API's schema (issue 20): its slot value is read with the API's date field,
 * so a date that is not on the calendar is a field error on the page too, with JS off over real HTTP, and
 * nothing changes.
 */
useTestDatabase();
const server = useTestServer();

const post = (path: string, cookie: string, values: Record<string, string>) => server.postForm(path, cookie, values);

describe(`the booking form reads the slot with the API's fields (${testDriver})`, () => {
  it('answers "2026-02-30|morning" with a translated field error, keeps the values and books nothing', async () => {
    const guide = await createGuide({ price: 2000 });
    await createAvailability(guide.id, { from: todayInTaipei(), days: 5, price: 1500 });
    const traveler = await createTraveler();
    const { cookie } = await loginAs(traveler);

    for (const [slot, message] of [
      ['2026-02-30|morning', '日期格式應為 YYYY-MM-DD'],
      [`${todayInTaipei()}|midnight`, '時段'],
    ] as const) {
      const refused = await post(`/booking/${guide.id}`, cookie, { slot, numberOfPeople: '3', note: '想看夜市', termsAccepted: 'on' });
      expect(refused.status, slot).toBe(400);
      expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
      // The message is on the page, worded (not a bare key), in the error summary above the form.
      const summary = /<div id="booking-errors"[\s\S]*?<\/ul>/.exec(refused.text)?.[0] ?? '';
      expect(summary, slot).toContain(message);
      expect(refused.text).toMatch(new RegExp(`<p class="field-error" id="booking-slot-error">[^<]*${message}`));
      expect(refused.text).toContain('想看夜市');
    }
    expect(await getDb().select().from(orders).where(eq(orders.travelerId, traveler.id))).toHaveLength(0);
    expect(await getDb().select().from(orderEvents)).toHaveLength(0);
  });
});
