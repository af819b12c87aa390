import { expect, test, type APIRequestContext } from './test';
import { expectNoAxeViolations, jsEnabled, savePicture } from './support';
import { payOrderOverHttp } from './pay';

/**
 * Cancelling asks first (issue 19): the traveler sees what they get back under the booking terms before the
 * booking ends; with JS a modal dialog (keeping the booking closes it), without JS a confirmation step. A cancelled
 * order no longer offers the calendar file.
 */
const PASSWORD = 'demo1234';
const TRAVELER = 'kenta.yamamoto@demo.travel-assistant.tw';
const GUIDES = { 'js-on': 'guide08@demo.travel-assistant.tw', 'js-off': 'guide09@demo.travel-assistant.tw' } as const;
const taipeiDay = (offset: number) => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(new Date());
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

async function token(request: APIRequestContext, email: string): Promise<{ token: string; id: number }> {
  const answer = await (await request.post('/api/v1/auth/login', { data: { email, password: PASSWORD } })).json();
  return { token: answer.data.token, id: answer.data.user.id };
}

test('cancelling a booking asks first and says what comes back', async ({ page, request }, testInfo) => {
  // Paying the booking first (issue 32) takes a few more requests.
  test.setTimeout(60_000);
  const guide = await token(request, GUIDES[testInfo.project.name as keyof typeof GUIDES]);
  const traveler = await token(request, TRAVELER);
  // A slot ten days ahead: more than 72 hours before it begins, the whole amount comes back.
  const day = taipeiDay(10);
  const opened = await request.post(`/api/v1/guides/${guide.id}/availability-slots`, {
    headers: { authorization: `Bearer ${guide.token}` },
    data: { slots: [{ date: day, time_slot: 'evening' }] },
  });
  expect(opened.status()).toBe(200);
  const booked = await request.post('/api/v1/orders', {
    headers: { authorization: `Bearer ${traveler.token}` },
    data: { guideId: guide.id, date: day, timeSlot: 'evening', numberOfPeople: 2, termsAccepted: true },
  });
  expect(booked.status()).toBe(201);
  const order = (await booked.json()).data.order as { id: number; totalPrice: number };
  await payOrderOverHttp(request, { orderId: order.id, token: traveler.token });
  const amount = `NT$${order.totalPrice.toLocaleString('en-US')}`;

  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`/login?${new URLSearchParams({ redirectTo: `/orders/${order.id}` })}`);
  await page.getByLabel('電子郵件', { exact: true }).fill(TRAVELER);
  await page.getByLabel('密碼', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登入', exact: true }).click();
  await expect(page.getByRole('heading', { name: new RegExp(`訂單 #${order.id}`) })).toBeVisible();
  await expect(page.getByRole('link', { name: '加入行事曆（.ics）' })).toBeVisible();

  await page.getByRole('button', { name: '取消預約' }).click();
  const dialog = page.getByRole('dialog', { name: '確定要取消這筆預約嗎？' });
  await expect(dialog).toBeVisible();
  // On the first screen of a phone, with JS (a modal) and without (the confirmation step opens at the top).
  await expect(dialog).toBeInViewport();
  // Paid, not yet confirmed: the card is only authorised, and cancelling releases it (issue 32).
  await expect(dialog).toContainText(`你的信用卡目前只有授權，不會扣款，${amount} 的授權會被取消。`);
  await expectNoAxeViolations(page, testInfo);
  await savePicture(page, `cancel-confirm-${testInfo.project.name}-360.png`);
  if (jsEnabled(testInfo)) {
    // A modal: keeping the booking closes it and nothing changed.
    expect(await dialog.evaluate((d) => d.matches(':modal'))).toBe(true);
    await dialog.getByRole('button', { name: '保留預約' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { name: new RegExp(`訂單 #${order.id}`) })).toContainText('待確認');
    await page.getByRole('button', { name: '取消預約' }).click();
  }
  await page.getByRole('dialog').getByRole('button', { name: '確定取消預約' }).click();
  await expect(page.getByRole('heading', { name: new RegExp(`訂單 #${order.id}`) })).toContainText('已取消');
  await expect(page.getByRole('link', { name: '加入行事曆（.ics）' })).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
