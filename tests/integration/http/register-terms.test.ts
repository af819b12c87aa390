import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { termsAgreements, users } from '~db/schema';
import { createUser } from '~server/seed/factories';
import { agreementStatus, publishTerms } from '~/services/accounts/terms.server';
import { findUserByEmail } from '~/services/accounts/users.server';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 24: a new account agrees to the current terms when it signs up. The register page's box is required and
 * records the version shown; POST /api/v1/auth/register records it with agreeToTerms: true and stays backward
 * compatible without it (nothing recorded: the terms modal asks later). Real HTTP, real database.
 */
useTestDatabase();
const server = useTestServer();

const PASSWORD = 'secret-pass-1';
let n = 0;
const newEmail = (label: string) => `terms-${label}-${Date.now()}-${n++}@example.test`;

async function agreementsOf(email: string) {
  const user = await findUserByEmail(email);
  if (!user) return { user, rows: [] };
  return { user, rows: await getDb().select().from(termsAgreements).where(eq(termsAgreements.userId, user.id)) };
}

function submitForm(values: Record<string, string>, headers: Record<string, string> = {}) {
  return server.request('/register', {
    method: 'POST',
    origin: server.baseUrl,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(values).toString(),
  });
}

describe(`sign-up agreement to the terms (${testDriver})`, () => {
  it('the page shows the box and the current version; without the box ticked: 400, translated, values kept, nothing created', async () => {
    const page = await server.request('/register', { headers: { 'accept-language': 'zh-TW' } });
    expect(page.text).toMatch(/<input type="hidden" name="termsVersion" value="1\.0\.0"/);
    expect(page.text).toContain('href="/terms"');
    expect(page.text).toContain('href="/privacy-policy"');

    const email = newEmail('unticked');
    const refused = await submitForm({ type: 'traveler', name: '阿明', email, password: PASSWORD, termsVersion: '1.0.0' }, { 'accept-language': 'zh-TW' });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/<p class="field-error" id="register-agreeToTerms-error">請先同意服務條款與隱私權政策<\/p>/);
    expect(refused.text).toMatch(/<input[^>]*name="email"[^>]*value="[^"]*terms-unticked/);
    expect(await findUserByEmail(email)).toBeUndefined();

    const en = await submitForm({ type: 'traveler', name: 'Al', email, password: PASSWORD }, { 'accept-language': 'en' });
    expect(en.text).toContain('Please agree to the terms of service and the privacy policy');
  });

  it('a ticked box records agreement to the version shown: the new account is not asked', async () => {
    const email = newEmail('form');
    const res = await submitForm({ type: 'traveler', name: '阿明', email, password: PASSWORD, agreeToTerms: 'on', termsVersion: '1.0.0' });
    expect(res.status).toBe(302);
    const { user, rows } = await agreementsOf(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ version: '1.0.0', termsId: null });
    expect((await agreementStatus(user!)).requiresAgreement).toBe(false);
  });

  it('API: agreeToTerms records the current version; without it (the SPEC body) nothing is recorded and the user is asked', async () => {
    const withAgreement = newEmail('api-yes');
    const yes = await server.request('/api/v1/auth/register', { json: { type: 'traveler', name: 'Yes', email: withAgreement, password: PASSWORD, agreeToTerms: true } });
    expect(yes.status).toBe(201);
    expect(yes.json.data.termsAgreedVersion).toBe('1.0.0');
    const a = await agreementsOf(withAgreement);
    expect(a.rows.map((r) => r.version)).toEqual(['1.0.0']);
    expect((await agreementStatus(a.user!)).requiresAgreement).toBe(false);

    const plain = newEmail('api-plain');
    const old = await server.request('/api/v1/auth/register', { json: { type: 'traveler', name: 'Plain', email: plain, password: PASSWORD } });
    expect(old.status).toBe(201);
    expect(old.json.data.termsAgreedVersion).toBeNull();
    const b = await agreementsOf(plain);
    expect(b.rows).toHaveLength(0);
    expect((await agreementStatus(b.user!)).requiresAgreement).toBe(true);

    // A wrongly typed flag is a 400 that creates nothing.
    const bad = newEmail('api-bad');
    const typo = await server.request('/api/v1/auth/register', { json: { type: 'traveler', name: 'Bad', email: bad, password: PASSWORD, agreeToTerms: 'yes' } });
    expect(typo.status).toBe(400);
    expect(await getDb().select().from(users).where(eq(users.email, bad))).toHaveLength(0);
  });

  it('a version no longer current records nothing (the modal asks); the published one is recorded with its row', async () => {
    const admin = await createUser({ type: 'admin' });
    const v2 = await publishTerms(admin, { kind: 'terms', locale: 'zh-TW', version: '2.0.0', title: '服務條款 v2', content: '## 新條款' });
    const page = await server.request('/register');
    expect(page.text).toMatch(/name="termsVersion" value="2\.0\.0"/);

    const stale = newEmail('stale');
    const staleRes = await submitForm({ type: 'traveler', name: '舊版', email: stale, password: PASSWORD, agreeToTerms: 'on', termsVersion: '1.0.0' });
    expect(staleRes.status).toBe(302);
    const s = await agreementsOf(stale);
    expect(s.rows).toHaveLength(0);
    expect((await agreementStatus(s.user!)).requiresAgreement).toBe(true);

    const current = newEmail('current');
    const api = await server.request('/api/v1/auth/register', { json: { type: 'traveler', name: 'Now', email: current, password: PASSWORD, agreeToTerms: true, termsVersion: '2.0.0' } });
    expect(api.json.data.termsAgreedVersion).toBe('2.0.0');
    const c = await agreementsOf(current);
    expect(c.rows).toHaveLength(1);
    expect(c.rows[0]).toMatchObject({ version: '2.0.0', termsId: v2.id });
    expect((await agreementStatus(c.user!)).requiresAgreement).toBe(false);
  });
});
