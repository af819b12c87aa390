import { codeFor, mailsTo } from './mail';
import { uniqueEmail } from './support';
import { expect, type APIRequestContext, type TestInfo } from './test';

/**
 * A new traveler made through the API as a person would: registered, the e-mailed code entered, logged in. Returns
 * the address, the name and a bearer token.
 */
export async function registerTraveler(request: APIRequestContext, testInfo: TestInfo, who: { label: string; name: string; password: string }) {
  const email = uniqueEmail(testInfo, who.label);
  const before = mailsTo(email).length;
  const created = await request.post('/api/v1/auth/register', {
    data: { type: 'traveler', name: who.name, email, password: who.password, agreeToTerms: true },
    headers: { 'Accept-Language': 'zh-TW' },
  });
  expect(created.status()).toBe(201);
  const code = await codeFor(email, { after: before });
  expect((await request.post('/api/v1/auth/verify-email', { data: { email, code } })).status()).toBe(200);
  const session = await (await request.post('/api/v1/auth/login', { data: { email, password: who.password } })).json();
  return { email, name: who.name, token: session.data.token as string };
}
