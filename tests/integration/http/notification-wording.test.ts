import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { notifications, users } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { localeCookie } from '~/i18n/i18n.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { createAvailability, createGuide, createTraveler } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { payOrder } from '../../support/payments';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 19: notifications are written in the reader's current language, also the ones created before they
 * switched. A notice is stored as what happened and worded when shown (app/services/messaging/notice-wording.server.ts).
 */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());

describe(`notifications in the reader's language of the moment (${testDriver})`, () => {
  it('a guide who switches from 中文 to English reads the earlier booking notice in English, on the page and in the API', async () => {
    const day = addDays(todayInTaipei(), 4);
    const guide = await createGuide({ price: 2800, locale: 'zh-TW' });
    await createAvailability(guide.id, { from: day, days: 1, price: 2800 });
    const traveler = await createTraveler({ name: '王小明' });
    const booked = await server.request('/api/v1/orders', {
      token: (await loginAs(traveler)).token,
      json: { guideId: guide.id, date: day, timeSlot: 'evening', numberOfPeople: 3, termsAccepted: true },
    });
    expect(booked.status).toBe(201);
    const id = booked.json.data.order.id as number;
    // The guide hears of a paid tour's booking once it is paid (issue 32).
    expect(await payOrder(traveler, id)).toEqual({ status: 200, body: '1|OK' });
    const [stored] = await getDb().select().from(notifications).where(eq(notifications.userId, guide.id));
    expect(stored!.title).toBe(`新的預約 #${id}`);

    // The guide now reads in English: the page (language cookie) and the API (Accept-Language) word it again.
    await getDb().update(users).set({ locale: 'en' }).where(eq(users.id, guide.id));
    const { cookie, token } = await loginAs(guide);
    const english = await localeCookie.serialize('en');
    const page = await server.request('/notifications', { cookie: `${cookie}; ${english.split(';')[0]}` });
    expect(page.text).toContain(`New booking #${id}`);
    expect(page.text).toContain('王小明');
    expect(page.text).not.toContain('新的預約');
    const api = await server.request('/api/v1/notifications', { token, headers: { 'Accept-Language': 'ja' } });
    expect(api.json.data.notifications[0].title).toMatch(new RegExp(`#${id}`));
    expect(api.json.data.notifications[0].title).not.toContain('新的預約');
    expect(api.json.data.notifications[0].body).toContain('NT$2,800');

    // A row written before notices kept their facts keeps its stored words.
    await getDb().insert(notifications).values({ userId: guide.id, type: 'order.booked', title: '舊的通知', body: '舊的內容', link: '/orders/1' });
    const again = await server.request('/api/v1/notifications', { token, headers: { 'Accept-Language': 'en' } });
    expect(again.json.data.notifications.map((n: { title: string }) => n.title)).toContain('舊的通知');
  });
});
