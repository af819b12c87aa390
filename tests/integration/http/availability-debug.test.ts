import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '~/env.server';
import { addDays, todayInTaipei } from '~/lib/dates';
import { loginAs } from '../../support/api';
import { createAvailability, createGuide, createUser } from '~server/seed/factories';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * The availability page's debug panel (issue 10, SPEC §2) and the 10,000-byte save warning (SPEC §8 Slots),
 * over real HTTP: who sees the panel in which mode, what it shows without JS, and the server's warning.
 */
useTestDatabase();
const server = useTestServer();

const CONFIG_KEY = Symbol.for('lvyou.config');
const g = globalThis as Record<symbol, unknown>;
const original = g[CONFIG_KEY];
/** The configuration the server reads (shared through globalThis) with another NODE_ENV. */
const runAs = (mode: 'production' | 'development') => {
  g[CONFIG_KEY] = parseConfig({ ...process.env, NODE_ENV: mode });
};
afterEach(() => {
  g[CONFIG_KEY] = original;
  vi.restoreAllMocks();
});

const inDays = (n: number) => addDays(todayInTaipei(), n);
const PANEL = 'data-testid="availability-debug"';
const postForm = (path: string, cookie: string, values: [string, string][]) =>
  server.request(path, {
    method: 'POST',
    cookie,
    origin: server.baseUrl,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(values).toString(),
  });

describe(`availability debug panel (${testDriver})`, () => {
  it('is absent for a guide in production, present for an admin there, and for the guide in development', async () => {
    const guide = await createGuide();
    await createAvailability(guide.id, { from: inDays(0), days: 3, price: 1500, slots: ['morning'] });
    const g1 = await loginAs(guide);
    const admin = await loginAs(await createUser({ type: 'admin' }));

    runAs('production');
    const own = await server.request('/guide-availability', { cookie: g1.cookie });
    expect(own.status).toBe(200);
    expect(own.text).not.toContain(PANEL);
    const adminPage = await server.request(`/guide-availability?guideId=${guide.id}`, { cookie: admin.cookie });
    expect(adminPage.status).toBe(200);
    expect(adminPage.text).toContain(PANEL);
    // The slot states of the shown days, rendered by the server (works with JS off).
    const states = /<table class="debug-states[^"]*">([\s\S]*?)<\/table>/.exec(adminPage.text)?.[1] ?? '';
    expect(states).toMatch(new RegExp(`<th scope="row">${inDays(1)}</th><td>開放</td><td>未設定</td><td>未設定</td>`));
    expect(adminPage.text).toContain('本頁尚未儲存過。');

    runAs('development');
    expect((await server.request('/guide-availability', { cookie: g1.cookie })).text).toContain(PANEL);
  });

  it('a save with JS off shows its log line: what was sent, the status and the size', async () => {
    const guide = await createGuide();
    const admin = await loginAs(await createUser({ type: 'admin' }));
    runAs('production');
    const day = inDays(3);
    const saved = await postForm(`/guide-availability?guideId=${guide.id}&date=${day}`, admin.cookie, [
      ['date', day],
      ['slots', 'morning'],
      ['slots', 'evening'],
    ]);
    expect(saved.status).toBe(200);
    expect(saved.text).toMatch(new RegExp(`${day} \\[morning, evening\\] → 200, \\d+ B`));
  });

  it('the server warns when an availability save answers over 10,000 bytes (a full 60-day calendar)', async () => {
    const guide = await createGuide();
    await createAvailability(guide.id, { from: inDays(0), days: 61, price: 1500 });
    const { token } = await loginAs(guide);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const small = await server.request(`/api/v1/guides/${guide.id}/availability-slots`, {
      token,
      json: { slots: [{ date: inDays(2), time_slot: 'morning', available: 1, price: 1500 }] },
    });
    expect(small.status).toBe(200);
    expect(small.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Buffer.byteLength(small.text)).toBeGreaterThan(10_000);
    expect(warn.mock.calls.some((c) => /availability save answer is \d+ bytes \(over 10000\)/.test(String(c[0])))).toBe(true);

    // A near-empty calendar answers well under the limit: no warning.
    const other = await createGuide();
    const o = await loginAs(other);
    warn.mockClear();
    const tiny = await server.request(`/api/v1/guides/${other.id}/availability-slots`, {
      token: o.token,
      json: { slots: [{ date: inDays(2), time_slot: 'morning', available: 1 }] },
    });
    expect(tiny.status).toBe(200);
    expect(Buffer.byteLength(tiny.text)).toBeLessThan(10_000);
    expect(warn).not.toHaveBeenCalled();
  });
});
