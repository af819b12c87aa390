import { expect, test, type Page } from './test';
import { cardNames, cardsIn, expectNoAxeViolations, jsEnabled } from './support';

/** Guide search and the guide page on a 360 px phone, with JavaScript on and off (issue 9). */
test.use({ viewport: { width: 360, height: 740 } });

const DEMO_TRAVELER = 'pinyen.chen@demo.travel-assistant.tw';

async function login(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('電子郵件', { exact: true }).fill(email);
  await page.getByLabel('密碼', { exact: true }).fill('demo1234');
  await page.getByRole('button', { name: '登入', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** Submits the search form: with JS the results follow by themselves 300 ms after the last change. */
async function runSearch(page: Page, js: boolean) {
  const search = page.getByRole('search', { name: '搜尋導遊' });
  if (js) await page.waitForLoadState('networkidle');
  else await search.getByRole('button', { name: '搜尋' }).click();
}

async function prices(page: Page): Promise<number[]> {
  const texts = await cardsIn(page, 'guide-list').getByText(/^NT\$/).allInnerTexts();
  return texts.map((t) => Number(t.replace(/[^\d]/g, '')));
}

test.describe('guide search', () => {
  test('city + language + price range, sorted by price; page 2; open a guide', async ({ page }, testInfo) => {
    const js = jsEnabled(testInfo);
    await page.goto('/guides');
    const search = page.getByRole('search', { name: '搜尋導遊' });
    await search.getByLabel('地區').selectOption({ label: '台北' });
    await search.getByLabel('語言').selectOption({ label: '英文' });
    await search.getByLabel('最低價格（NT$）').fill('2000');
    await search.getByLabel('最高價格（NT$）').fill('3000');
    await search.getByLabel('排序').selectOption({ label: '價格由低到高' });
    await runSearch(page, js);

    await expect(page).toHaveURL(/city=taipei/);
    await expect(page).toHaveURL(/language=en/);
    await expect(page).toHaveURL(/minPrice=2000/);
    await expect(page).toHaveURL(/maxPrice=3000/);
    await expect(page).toHaveURL(/sort=price_asc/);
    const cards = cardsIn(page, 'guide-list');
    await expect(page.getByTestId('result-count')).toHaveText('找到 2 位導遊');
    await expect(cards).toHaveCount(2);
    expect(await cardNames(cards)).toEqual(['陳怡君', '林志豪']);
    expect(await prices(page)).toEqual([2400, 2800]);
    // Each filter can be taken off alone.
    await expect(page.getByRole('navigation', { name: '目前的篩選條件' }).getByRole('link', { name: '移除條件：台北' })).toBeVisible();

    // Everything sorted by price, page 2.
    await page.goto('/guides?sort=price_asc');
    const firstPage = await prices(page);
    await page.getByRole('navigation', { name: '分頁' }).getByRole('link', { name: '下一頁' }).click();
    await expect(page).toHaveURL(/\/guides\?sort=price_asc&page=2$/);
    await expect(page.getByRole('navigation', { name: '分頁' }).getByText('第 2 頁，共 4 頁')).toBeVisible();
    const secondPage = await prices(page);
    expect(secondPage).toHaveLength(10);
    expect([...secondPage].sort((a, b) => a - b)).toEqual(secondPage);
    expect(secondPage[0]).toBeGreaterThanOrEqual(firstPage.at(-1)!);

    const card = cards.first();
    const name = (await card.getByRole('heading').innerText()).trim();
    await card.getByRole('link', { name: `查看${name}的介紹` }).click();
    await expect(page).toHaveURL(/\/guides\/\d+$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    // Above the fold at 360 px: name, price and the book action.
    await expect(page.getByRole('link', { name: '預約導遊' })).toBeInViewport();
    await expect(page.getByText(/^NT\$[\d,]+$/).first()).toBeInViewport();
    await expect(page.getByRole('region', { name: '未來 14 天可預約時段' })).toBeVisible();
  });

  test('a page past the end goes to the last page; no results say what to loosen', async ({ page }) => {
    await page.goto('/guides?page=99');
    await expect(page).toHaveURL(/\/guides\?page=4$/);
    await page.goto('/guides?city=penghu&minPrice=4000');
    await expect(page.getByText('沒有符合條件的導遊。')).toBeVisible();
    await expect(page.getByText('試著放寬這些條件：地區、最低價格。')).toBeVisible();
    await page.getByRole('link', { name: '清除條件，查看所有導遊' }).click();
    await expect(page).toHaveURL(/\/guides$/);
    // 36 demo guides, plus any that other specs registered on the same server.
    await expect(page.getByTestId('result-count')).toHaveText(/^找到 (3[6-9]|[4-9]\d) 位導遊$/);
  });

  test('a search history chip runs the search again', async ({ page }, testInfo) => {
    await login(page, DEMO_TRAVELER);
    const unique = 1000 + Math.floor(Math.random() * 900) * 1 + (jsEnabled(testInfo) ? 0 : 1);
    await page.goto(`/guides?keyword=${encodeURIComponent('台北')}&minPrice=${unique}`);
    await expect(page.getByTestId('result-count')).toBeVisible();
    await page.goto('/guides');
    const chip = page.getByRole('region', { name: '最近的搜尋' }).getByRole('link', { name: `台北 · NT$${unique.toLocaleString('en')} 以上` });
    await chip.first().click();
    await expect(page).toHaveURL(new RegExp(`keyword=${encodeURIComponent('台北')}.*minPrice=${unique}`));
    await expect(page.getByRole('search').getByLabel('關鍵字')).toHaveValue('台北');
  });

  test('what a visitor chose before the page hydrated is still chosen after it, and is searched (JS)', async ({ page }, testInfo) => {
    test.skip(!jsEnabled(testInfo), 'without JS there is no hydration');
    // A slow phone: the page shows and takes input before its scripts have run. Hold them until a city is chosen.
    let releaseScripts!: () => void;
    const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve));
    await page.route(/\/assets\/.+\.js$/, async (route) => {
      await scriptsHeld;
      await route.continue();
    });
    await page.goto('/guides', { waitUntil: 'commit' });
    const search = page.getByRole('search', { name: '搜尋導遊' });
    await search.getByLabel('地區').selectOption({ label: '台北' });
    await search.getByLabel('最低價格（NT$）').fill('1500');
    releaseScripts();
    // Hydrated (Remix's router exists) and its effects have run (nothing left to load).
    await page.waitForFunction(() => '__remixRouter' in window);
    await page.waitForLoadState('networkidle');
    await expect(search.getByLabel('地區')).toHaveValue('taipei');
    await expect(search.getByLabel('最低價格（NT$）')).toHaveValue('1500');
    await search.getByRole('button', { name: '搜尋' }).click();
    await expect(page).toHaveURL(/city=taipei/);
    await expect(page).toHaveURL(/minPrice=1500/);
  });

  test('a visitor keeps a history in the browser (JS)', async ({ page }, testInfo) => {
    test.skip(!jsEnabled(testInfo), 'without JS a visitor has no history; members keep theirs on the server');
    await page.goto('/guides?city=hualien');
    // The page writes the search into localStorage once it has hydrated: wait for it before leaving.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('lvyou.search-history') ?? '')).toContain('hualien');
    await page.goto('/guides');
    const chip = page.getByRole('region', { name: '最近的搜尋' }).getByRole('link', { name: '花蓮' });
    await chip.click();
    await expect(page).toHaveURL(/city=hualien/);
    await expect(page.getByTestId('result-count')).toHaveText('找到 4 位導遊');
  });

  test('keywords: 臺北 finds 台北 guides; suggestions offer cities (JS)', async ({ page }, testInfo) => {
    await page.goto(`/guides?keyword=${encodeURIComponent('臺北')}`);
    const count = await cardsIn(page, 'guide-list').count();
    expect(count).toBeGreaterThanOrEqual(5);
    if (!jsEnabled(testInfo)) return;
    const box = page.getByRole('search').getByLabel('關鍵字');
    await box.fill('花');
    await expect(page.locator('#search-keyword-suggestions option[value="花蓮"]')).toHaveCount(1);
    await page.waitForURL(/keyword=%E8%8A%B1/);
  });

  test('axe finds no violations on /guides and /guides/:id', async ({ page }, testInfo) => {
    test.skip(!jsEnabled(testInfo), 'axe runs as a script in the page; the markup is the same without JS');
    await page.goto('/guides?city=taipei&sort=rating_desc');
    await expectNoAxeViolations(page, testInfo, '/guides');
    await cardsIn(page, 'guide-list').first().getByRole('link').click();
    await expect(page).toHaveURL(/\/guides\/\d+$/);
    await expectNoAxeViolations(page, testInfo, '/guides/:id');
  });
});
