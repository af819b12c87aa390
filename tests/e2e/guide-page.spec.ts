import { expect, test, type Locator, type Page, type TestInfo } from './test';
import { cardsIn, expectNoAxeViolations, jsEnabled, savePicture } from './support';

/**
 * What a traveler meets on a guide's page (issue 19), with JS on and off:
 * - the heart says which state it is in (aria-pressed, "已收藏" / "remove from favorites") after a tap and
 *   after a reload, and a second tap takes the guide out again;
 * - a slot chip opens the booking form with that slot chosen and on screen, at 360 and 1280 px.
 * Demo travelers no other spec uses, one per project (js-on / js-off run side by side).
 */
const PASSWORD = 'demo1234';
const travelerFor = (testInfo: TestInfo) =>
  jsEnabled(testInfo) ? 'daisuke.suzuki@demo.travel-assistant.tw' : 'yui.takahashi@demo.travel-assistant.tw';

async function logIn(page: Page, email: string, then: RegExp) {
  await page.getByLabel('電子郵件', { exact: true }).fill(email);
  await page.getByLabel('密碼', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登入', exact: true }).click();
  // /login-success moves on by itself (a timer with JS, a meta refresh without).
  await expect(page).toHaveURL(then, { timeout: 15_000 });
}

/** Opens the nth guide of /guides' first page; answers its name and path. */
async function openGuide(page: Page, n: number): Promise<{ name: string; path: string }> {
  await page.goto('/guides');
  const card = cardsIn(page, 'guide-list').nth(n);
  const name = (await card.getByRole('heading').innerText()).trim();
  await card.getByRole('link', { name: `查看${name}的介紹` }).click();
  await expect(page).toHaveURL(/\/guides\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  return { name, path: new URL(page.url()).pathname };
}

/** The guide page's heart, found by its words whichever state it is in. */
function heartOf(page: Page): Locator {
  return page.getByRole('main').getByRole('button', { name: /收藏/ });
}

async function expectHeart(heart: Locator, name: string, favorited: boolean) {
  await expect(heart).toHaveAttribute('aria-pressed', favorited ? 'true' : 'false');
  await expect(heart).toHaveAccessibleName(favorited ? '已收藏' : '收藏');
  await expect(heart).toHaveAttribute('title', favorited ? `將 ${name} 從收藏移除` : `將 ${name} 加入收藏`);
}

/** Taps the heart and waits for what follows: the fetcher's answer with JS, the page back with a toast without. */
async function tap(page: Page, heart: Locator, testInfo: TestInfo, becomes: boolean) {
  const posted = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/favorites'));
  await heart.click();
  await posted;
  if (!jsEnabled(testInfo)) await expect(page.getByRole('status')).toHaveText(becomes ? '已加入收藏' : '已從收藏移除');
}

async function pictureOfHeart(page: Page, heart: Locator, file: string) {
  await heart.scrollIntoViewIfNeeded();
  await savePicture(page, file);
}

test.describe('guide page', () => {
  test('the heart shows whether the guide is a favorite, after a tap and after a reload', async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 360, height: 780 });
    const { name, path } = await openGuide(page, jsEnabled(testInfo) ? 2 : 3);

    // A visitor's tap asks them to log in, and brings them back to this page.
    await heartOf(page).click();
    await expect(page).toHaveURL(new RegExp(`/login\\?redirectTo=${encodeURIComponent(path)}$`));
    await logIn(page, travelerFor(testInfo), new RegExp(`${path}$`));
    const heart = heartOf(page);
    // Start from "not a favorite" (the demo data may hold this favorite already).
    if ((await heart.getAttribute('aria-pressed')) === 'true') {
      await tap(page, heart, testInfo, false);
      await page.reload();
    }
    await expectHeart(heart, name, false);
    await expectNoAxeViolations(page, testInfo, path);
    const project = testInfo.project.name;
    await pictureOfHeart(page, heart, `guide-heart-${project}-360-off.png`);

    await tap(page, heart, testInfo, true);
    await expectHeart(heart, name, true);
    await pictureOfHeart(page, heart, `guide-heart-${project}-360-on.png`);
    await page.reload();
    await expectHeart(heart, name, true);
    await expectNoAxeViolations(page, testInfo, `${path} (favorite)`);

    await page.setViewportSize({ width: 1280, height: 800 });
    await pictureOfHeart(page, heart, `guide-heart-${project}-1280-on.png`);
    await tap(page, heart, testInfo, false);
    await expectHeart(heart, name, false);
    await page.reload();
    await expectHeart(heart, name, false);
    await pictureOfHeart(page, heart, `guide-heart-${project}-1280-off.png`);
  });

  const SLOT_WORDS: Record<string, string> = { 上午: 'morning', 下午: 'afternoon', 晚上: 'evening' };

  for (const width of [360, 1280]) {
    test(`a slot chip opens the booking form with that slot chosen and on screen at ${width} px`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: width < 768 ? 780 : 800 });
      await openGuide(page, width < 768 ? 4 : 5);
      // The last open slot of the 14 days: the furthest one, below the fold of a booking page that started today.
      const day = page.getByTestId('open-days').getByRole('listitem').filter({ has: page.locator('time') }).last();
      const date = await day.locator('time').getAttribute('datetime');
      const chip = day.getByRole('link').last();
      // The chip reads "晚上 18:00–21:00": the slot's word, then its hours.
      const [word, hours] = (await chip.innerText()).trim().split(/\s+/);
      const timeSlot = SLOT_WORDS[word!];
      expect(hours).toBe({ morning: '09:00–12:00', afternoon: '13:00–17:00', evening: '18:00–21:00' }[timeSlot!]);
      expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(timeSlot).toBeTruthy();
      await chip.click();

      await expect(page).toHaveURL(/\/booking\/\d+\?/);
      const chosen = page.getByRole('radio', { checked: true });
      await expect(chosen).toHaveCount(1);
      await expect(chosen).toHaveAttribute('value', `${date}|${timeSlot}`);
      // The first screen shows the choice: on a phone in the summary that opens the page (the day picker and that
      // day's slots follow it), on a laptop also the checked slot beside it.
      const summary = page.getByTestId('booking-summary');
      await expect(summary).toBeInViewport();
      await expect(summary).toContainText(hours!);
      if (width >= 992) await expect(chosen).toBeInViewport();
      await savePicture(page, `guide-slot-chosen-${testInfo.project.name}-${width}.png`);
    });
  }

  test('the slot chips are touch targets on a phone (44 px)', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    // A demo guide (the oldest accounts), not one another spec made without slots (the newest come first).
    await page.goto('/guides?sort=oldest');
    const card = cardsIn(page, 'guide-list').nth(6);
    const name = (await card.getByRole('heading').innerText()).trim();
    await card.getByRole('link', { name: `查看${name}的介紹` }).click();
    await expect(page).toHaveURL(/\/guides\/\d+$/);
    const chips = page.getByTestId('open-days').getByRole('link');
    await expect(chips.first()).toBeVisible();
    for (const box of await chips.evaluateAll((links) => links.map((link) => link.getBoundingClientRect().height))) {
      expect(box).toBeGreaterThanOrEqual(44);
    }
  });
});
