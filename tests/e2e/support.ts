/** Locators and actions shared by the browser specs. Roles and visible text first; CSS classes never. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

/** Where specs put screenshots for people to look at. */
export const SHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');

/**
 * Saves a picture of the page under tests/e2e/screenshots/ when E2E_SCREENSHOTS=1. The pictures are for people
 * to look at, never compared by a test, and cost a third of a long spec's time on a busy machine, so a plain
 * run (and CI) skips them; the checks around them (sizes, overflow, axe) always run.
 */
export async function savePicture(page: Page, file: string, options: { fullPage?: boolean; clip?: { x: number; y: number; width: number; height: number } } = {}): Promise<void> {
  if (process.env.E2E_SCREENSHOTS !== '1') return;
  await page.screenshot({ path: path.join(SHOTS, file), ...options });
}
export const DEMO_GUIDE = 'guide01@demo.travel-assistant.tw';
/** The admin the e2e server makes sure of at start (ADMIN_EMAIL / ADMIN_PASSWORD in global-setup). */
export const E2E_ADMIN = { email: 'e2e-admin@example.com', password: 'e2e-admin-pass-1' } as const;

/** A fresh address per project (js-on / js-off) and run, so accounts never collide. */
export function uniqueEmail(testInfo: TestInfo, label: string): string {
  const rand = Math.random().toString(36).slice(2, 7);
  return `e2e-${label}-${testInfo.project.name}-${Date.now()}-${rand}@example.com`;
}

export type Locale = 'zh-TW' | 'en' | 'ja';

/** Texts the tests look for, copied from app/locales on purpose (a changed string should fail a test). */
export const TEXT = {
  'zh-TW': {
    languageLabel: '語言', applyLanguage: '切換語言', optionName: '繁體中文', login: '登入', register: '註冊',
    loginAvatar: '登入帳號', featured: '精選導遊', guidesTitle: '導遊列表', next: '下一頁', notFound: '找不到頁面',
    backHome: '回到首頁', termsTitle: '服務條款', navGuides: '找導遊',
  },
  en: {
    languageLabel: 'Language', applyLanguage: 'Change language', optionName: 'English', login: 'Log in', register: 'Sign up',
    loginAvatar: 'Log in to your account', featured: 'Featured guides', guidesTitle: 'Guides', next: 'Next',
    notFound: 'Page not found', backHome: 'Back to home', termsTitle: 'Terms of Service', navGuides: 'Find a guide',
  },
  ja: {
    languageLabel: '言語', applyLanguage: '言語を切り替える', optionName: '日本語', login: 'ログイン', register: '新規登録',
    loginAvatar: 'アカウントにログイン', featured: 'おすすめのガイド', guidesTitle: 'ガイド一覧', next: '次へ',
    notFound: 'ページが見つかりません', backHome: 'ホームに戻る', termsTitle: '利用規約', navGuides: 'ガイドを探す',
  },
} as const;

/** The 15 city names as shown in zh-TW (app/locales/zh-TW/common.json "cities"). */
export const ZH_CITIES = ['台北', '新北', '基隆', '桃園', '新竹', '台中', '南投', '嘉義', '台南', '高雄', '屏東', '宜蘭', '花蓮', '台東', '澎湖'];

/** An element whose whole text is one city name (the card's city line; its pin icon has no text). */
export const CITY_ONLY = new RegExp(`^\\s*(${ZH_CITIES.join('|')})\\s*$`);

/** Service language names in zh-TW (app/locales/zh-TW/common.json "languages"). */
export const ZH_LANGUAGES = ['中文', '台語', '客語', '英文', '日文', '韓文', '法文', '德文', '西班牙文'];

export function jsEnabled(testInfo: TestInfo): boolean {
  return testInfo.project.use.javaScriptEnabled !== false;
}

/**
 * axe finds no violations on the page as it is now. axe runs as a script in the page, so only with JS on;
 * the js-off run gets the same server-rendered markup.
 */
export async function expectNoAxeViolations(page: Page, testInfo: TestInfo, label = page.url()) {
  if (!jsEnabled(testInfo)) return;
  // Only the violations are read: axe then keeps one example node of what passed instead of every node's selector
  // and markup (15-30 % of its time on the large admin pages; the same rules run on the same nodes).
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, `axe on ${label}`).toEqual([]);
}

export function languageSelect(page: Page, from: Locale): Locator {
  return page.getByRole('banner').getByRole('combobox', { name: TEXT[from].languageLabel });
}

/**
 * Picks a language in the header form. With JS the select submits on change; without JS the visitor
 * picks and presses the 切換語言 button. Waits until the page is rendered in the new language.
 */
export async function chooseLanguage(page: Page, testInfo: TestInfo, from: Locale, to: Locale): Promise<void> {
  const urlBefore = new URL(page.url());
  const select = languageSelect(page, from);
  if (jsEnabled(testInfo)) {
    // The apply button is for visitors without JS only.
    await expect(page.getByRole('button', { name: TEXT[from].applyLanguage })).toBeHidden();
    await select.selectOption({ label: TEXT[to].optionName });
  } else {
    await select.selectOption({ label: TEXT[to].optionName });
    await page.getByRole('button', { name: TEXT[from].applyLanguage }).click();
  }
  await expect(page.locator('html')).toHaveAttribute('lang', to);
  await expect(page.getByRole('banner').getByRole('link', { name: TEXT[to].login, exact: true })).toBeVisible();
  // The preference form sends the visitor back where they were.
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(urlBefore.pathname + urlBefore.search);
}

/** Guide cards inside a list (home: featured-guides, /guides: guide-list). */
export function cardsIn(page: Page, testId: 'featured-guides' | 'guide-list'): Locator {
  return page.getByTestId(testId).getByRole('article');
}

export async function cardNames(cards: Locator): Promise<string[]> {
  return (await cards.getByRole('heading').allInnerTexts()).map((s) => s.trim());
}

/** Relative luminance (0 black … 1 white) of a CSS rgb()/rgba() colour. */
export function luminance(css: string): number {
  const m = css.match(/rgba?\(\s*(\d+)[,\s]+(\d+)[,\s]+(\d+)/);
  if (!m) throw new Error(`not an rgb colour: ${css}`);
  const [r, g, b] = m.slice(1, 4).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Lazy images below the fold never load in a test; make them load and wait (screenshots, image checks). */
export async function loadAllImages(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const images = Array.from(document.images);
    for (const img of images) img.loading = 'eager';
    await Promise.all(
      images.map((img) =>
        img.complete ? undefined : new Promise<void>((resolve) => ((img.onload = () => resolve()), (img.onerror = () => resolve()))),
      ),
    );
  });
}

/** What the e2e guides give when they accept a booking. */
export const MEETING = { point: '台北車站東三門，我會舉黃色旗子', phone: '0912-345-678' } as const;

/**
 * The guide accepts the booking open on `page` (issue 35): 接受預約 asks where to meet and for a phone (a step of
 * its own with JS off, in place with JS on); the fields may start from the guide's last answer.
 */
export async function acceptBooking(page: Page, meeting: { point: string; phone: string } = MEETING): Promise<void> {
  await page.getByRole('button', { name: '接受預約' }).click();
  const step = page.getByTestId('confirm-meeting');
  await expect(step).toBeVisible();
  await step.getByLabel('集合地點').fill(meeting.point);
  await step.getByLabel('導遊電話').fill(meeting.phone);
  await savePicture(page, `accept-booking-meeting-step-${page.viewportSize()?.width ?? 0}.png`);
  await step.getByRole('button', { name: '接受預約' }).click();
  await expect(step).toBeHidden();
}

/**
 * Waits until React has hydrated the page (its nodes carry React's fiber keys): "load" comes before hydration when
 * the translation files arrive late, and a click before it is a plain, JS-off post (a flaky test's cause).
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const main = document.querySelector('main');
    return !!main && Object.keys(main).some((key) => key.startsWith('__reactFiber'));
  });
}
