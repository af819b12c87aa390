import { describe, expect, it } from 'vitest';
import { createGuide } from '~server/seed/factories';
import { MASK } from '~/lib/contact-mask';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 31, "names, bios and board posts are further channels" (decision 034): a guide's public texts are read
 * with contact details masked, like the board; the guide's own profile keeps the original; a name with contact
 * details in it is refused at registration.
 */
useTestDatabase();
const server = useTestServer();

describe(`names and public profile texts (${testDriver})`, () => {
  it('a guide profile shows bio, headline and description with contact details masked; the guide reads its own original', async () => {
    const guide = await createGuide({
      bio: '在地導遊，LINE ID 是 chen_guide88',
      headline: '預約前先打 0912/345/678',
      description: '歡迎來信 chen@gmail。com 或加賴 chen_guide88，帶你走訪在地景點。',
    });
    const detail = await server.request(`/api/v1/guides/${guide.id}`);
    expect(detail.status).toBe(200);
    for (const secret of ['chen_guide88', '0912', 'gmail']) expect(detail.text).not.toContain(secret);
    expect(detail.json.data.guide.description).toContain(MASK);
    expect(detail.json.data.guide.description).toContain('帶你走訪在地景點');

    const list = await server.request('/api/v1/guides?city=taipei');
    expect(list.status).toBe(200);
    for (const secret of ['chen_guide88', '0912']) expect(list.text).not.toContain(secret);

    const page = await server.request(`/guides/${guide.id}`);
    expect(page.status).toBe(200);
    for (const secret of ['chen_guide88', '0912', 'gmail']) expect(page.text).not.toContain(secret);

    const own = await server.request(`/api/v1/users/${guide.id}`, { token: (await loginAs(guide)).token });
    expect(own.status).toBe(200);
    expect(own.json.data.user.description).toContain('chen_guide88');
  });

  it('registration refuses a name with a phone number or a messenger id, with a translated message', async () => {
    for (const name of ['小美 0912-345-678', 'Amy (LINE: amy_tw88)', 'amy@gmail.com']) {
      const answer = await server.request('/api/v1/auth/register', {
        json: { type: 'traveler', name, email: `n-${Math.random().toString(36).slice(2)}@example.test`, password: 'secret123' },
        headers: { 'accept-language': 'en' },
      });
      expect(answer.status, name).toBe(400);
      expect(answer.json.errors.name).toEqual(['A name cannot contain a phone number, an email address or a messenger ID']);
    }
    const fine = await server.request('/api/v1/auth/register', { json: { type: 'traveler', name: 'Line Huang 黃一二', email: 'line.huang@example.test', password: 'secret123' } });
    expect(fine.status).toBe(201);
  });
});
