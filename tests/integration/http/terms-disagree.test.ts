import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { orders, termsAgreements } from '~db/schema';
import { createTerms, createTraveler } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { bookableGuide, bookingDay } from '../../support/booking';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 35: "不同意" never leads to about:blank. It posts to /terms/disagree, which says what it means and offers
 * the ways on; the person then browses with a banner (no modal, no JS-off refresh to /terms/agree) until they
 * agree. Real HTTP, pages as a browser without JS gets them.
 */
useTestDatabase();
const server = useTestServer();
const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };

async function mustAgree() {
  const traveler = await createTraveler();
  await getDb().delete(termsAgreements).where(eq(termsAgreements.userId, traveler.id));
  return (await loginAs(traveler)).cookie;
}

describe(`disagreeing with the terms (${testDriver})`, () => {
  it('the agreement page offers Disagree as a post to /terms/disagree, never about:blank', async () => {
    const cookie = await mustAgree();
    const page = await server.request('/terms/agree?redirectTo=%2Fguides', { cookie });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('about:blank');
    expect(page.text).toMatch(/<button[^>]*formAction="\/terms\/disagree"[^>]*>不同意<\/button>/i);
    // Before disagreeing, a page without JS moves on to the agreement page.
    expect((await server.request('/guides', { cookie })).text).toContain('http-equiv="refresh" content="0;url=/terms/agree?redirectTo=%2Fguides&amp;lng=zh-TW"');
  });

  it('says what disagreeing means and the ways on; then pages show a banner instead of asking, until they agree', async () => {
    const session = await mustAgree();
    const said = await server.request('/terms/disagree', { method: 'POST', cookie: session, headers: formHeaders, body: 'redirectTo=%2Fguides&termsId=0&termsVersion=1.0.0&intent=disagree' });
    expect(said.status).toBe(302);
    expect(said.headers.get('location')).toBe('/terms/disagree?redirectTo=%2Fguides');
    expect(said.headers.get('set-cookie')).toMatch(/^terms-declined=1; Path=\//);
    const cookie = `${session}; terms-declined=1`;

    const page = await server.request('/terms/disagree?redirectTo=%2Fguides', { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('您尚未同意服務條款');
    expect(page.text).toContain('在同意之前，您無法預約導遊或傳送訊息');
    for (const way of ['href="/guides"', 'href="/terms"', 'href="/terms/agree?redirectTo=%2Fguides"', 'action="/logout"']) expect(page.text).toContain(way);
    // Support is offered where the site has an address for it (SUPPORT_EMAIL, else ADMIN_EMAIL; none in tests).
    expect(page.text).not.toContain('href="mailto:');

    const guides = await server.request('/guides', { cookie });
    expect(guides.text).not.toContain('http-equiv="refresh"');
    expect(guides.text).toContain('data-testid="terms-declined-banner"');
    expect(guides.text).toContain('href="/terms/agree?redirectTo=%2Fguides"');

    const agreed = await server.request('/terms/agree', { method: 'POST', cookie, headers: formHeaders, body: 'termsId=0&termsVersion=1.0.0&agree=on&redirectTo=%2Fguides' });
    expect(agreed.status).toBe(302);
    expect(agreed.headers.get('set-cookie')).toContain('terms-declined=; Path=/; SameSite=Lax; Max-Age=0');
    expect((await server.request('/guides', { cookie })).text).not.toContain('terms-declined-banner');
  });

  it('the booking form of someone who has not agreed says why, keeps what they wrote and books nothing', async () => {
    const guide = await bookableGuide();
    const cookie = `${await mustAgree()}; terms-declined=1`;
    const refused = await server.request(`/booking/${guide.id}`, {
      method: 'POST',
      cookie,
      origin: server.baseUrl,
      headers: formHeaders,
      body: new URLSearchParams({ slot: `${bookingDay()}|morning`, numberOfPeople: '2', note: '想看夜市', termsAccepted: 'on' }).toString(),
    });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('請先同意最新的服務條款，才能預約或傳送訊息。');
    expect(refused.text).toContain('想看夜市');
    expect(refused.text).toContain('data-testid="terms-declined-banner"');
    expect(await getDb().select().from(orders).where(eq(orders.guideId, guide.id))).toHaveLength(0);
  });

  it('a visitor may read it too (no account changes), and is never sent to the agreement page', async () => {
    const page = await server.request('/terms/disagree');
    expect(page.status).toBe(200);
    expect(page.text).toContain('href="/terms"');
    expect(page.text).not.toContain('action="/logout"');
    expect((await server.request('/guides')).text).not.toContain('http-equiv="refresh"');
  });
});

describe(`a language without terms of its own (${testDriver})`, () => {
  it('the agreement page shows the zh-TW text, marked as zh-TW and saying so in the reader\'s language', async () => {
    await createTerms({ kind: 'terms', locale: 'zh-TW', title: '服務條款', content: '## 中文條款', version: '1.2.0', isActive: true });
    const cookie = await mustAgree();
    const page = await server.request('/terms/agree?lng=ja', { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('この規約は中国語版のみです。');
    expect(page.text).toMatch(/<h2 id="terms-page-document" lang="zh-TW">服務條款<\/h2>/);
  });
});
