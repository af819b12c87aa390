import { expect, test, type APIRequestContext } from './test';
import { acceptBooking, jsEnabled } from './support';
import { payOrderOverHttp } from './pay';

/**
 * Issue 31 (decision 034): a traveler books with a note that holds a LINE id and a phone number written to get
 * past a filter. The guide opens the pending order and sees the note with them masked, and says why; after the
 * guide accepts the booking, the note shows in full.
 */
const PASSWORD = 'demo1234';
// Accounts no other spec uses (prepare-data.ts makes the travelers).
const ACCOUNTS = {
  'js-on': { traveler: 'e2e-note-traveler-js-on@example.com', guide: 'guide18@demo.travel-assistant.tw' },
  'js-off': { traveler: 'e2e-note-traveler-js-off@example.com', guide: 'guide19@demo.travel-assistant.tw' },
} as const;
const NOTE = '我的 LINE ID 是 chen_guide88，電話 0912/345/678，到了打給我';
const MASK = '•••';

const taipeiDay = (offset: number) => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(new Date());
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

async function login(request: APIRequestContext, email: string): Promise<{ token: string; id: number }> {
  const answer = await (await request.post('/api/v1/auth/login', { data: { email, password: PASSWORD } })).json();
  return { token: answer.data.token, id: answer.data.user.id };
}

test('the guide sees the booking note masked until accepting the booking, then in full', async ({ page, request }, testInfo) => {
  const accounts = ACCOUNTS[jsEnabled(testInfo) ? 'js-on' : 'js-off'];
  const guide = await login(request, accounts.guide);
  const traveler = await login(request, accounts.traveler);
  const day = taipeiDay(25);
  const opened = await request.post(`/api/v1/guides/${guide.id}/availability-slots`, {
    headers: { authorization: `Bearer ${guide.token}` },
    data: { slots: [{ date: day, time_slot: 'evening' }] },
  });
  expect(opened.status()).toBe(200);
  const booked = await request.post('/api/v1/orders', {
    headers: { authorization: `Bearer ${traveler.token}` },
    data: { guideId: guide.id, date: day, timeSlot: 'evening', numberOfPeople: 2, note: NOTE, termsAccepted: true },
  });
  expect(booked.status()).toBe(201);
  const orderId = (await booked.json()).data.order.id as number;
  // The guide sees a booking once it is paid (issue 32).
  await payOrderOverHttp(request, { orderId, token: traveler.token });

  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`/login?${new URLSearchParams({ redirectTo: `/orders/${orderId}` })}`);
  await page.getByLabel('電子郵件', { exact: true }).fill(accounts.guide);
  await page.getByLabel('密碼', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登入', exact: true }).click();
  await expect(page.getByRole('heading', { name: new RegExp(`訂單 #${orderId}`) })).toBeVisible();

  const note = page.locator('dd.description');
  await expect(note).toContainText(`我的 ${MASK}，電話 ${MASK}，到了打給我`);
  await expect(note).not.toContainText('chen_guide88');
  await expect(note).not.toContainText('0912');
  await expect(page.getByTestId('note-masked')).toContainText('確認預約前，聯絡方式會被隱藏');

  await acceptBooking(page);
  await expect(note).toHaveText(NOTE);
  await expect(page.getByTestId('note-masked')).toHaveCount(0);
});
