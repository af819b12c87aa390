import { expect, test } from './test';

// Plain HTTP checks: they do not involve the browser, so they run once (js-on project only).
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'js-on', 'HTTP checks run in the js-on project only');
});

test.describe('HTTP', () => {
  test('/api/ping answers JSON success', async ({ request }) => {
    const res = await request.get('/api/ping');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('application/json');
    expect(res.headers()['cache-control']).toContain('no-store');
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.data.status).toBe('ok');
    expect(Number.isNaN(Date.parse(body.data.time))).toBe(false);
  });

  test('HTML pages carry CSP with a per-request nonce on every script and hardening headers', async ({ request }) => {
    const res = await request.get('/');
    expect(res.status()).toBe(200);
    const headers = res.headers();
    const csp = headers['content-security-policy'];
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    const scriptSrc = csp!.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src'));
    expect(scriptSrc).toBeDefined();
    expect(scriptSrc).not.toContain('unsafe-inline');
    const nonce = csp!.match(/'nonce-([A-Za-z0-9+/=]+)'/)?.[1];
    expect(nonce, 'CSP has a nonce').toBeTruthy();
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBeTruthy();
    expect(headers['x-powered-by']).toBeUndefined();

    const html = await res.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    for (const tag of scripts) expect(tag, tag).toContain(`nonce="${nonce}"`);

    // A fresh nonce per response.
    const again = await request.get('/guides');
    const nonce2 = again.headers()['content-security-policy']!.match(/'nonce-([A-Za-z0-9+/=]+)'/)?.[1];
    expect(nonce2).toBeTruthy();
    expect(nonce2).not.toBe(nonce);
    for (const tag of (await again.text()).match(/<script\b[^>]*>/g) ?? []) expect(tag).toContain(`nonce="${nonce2}"`);
  });

  test('fingerprinted assets are cached as immutable', async ({ request }) => {
    const html = await (await request.get('/')).text();
    const assets = [...new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!))];
    expect(assets.filter((a) => a.endsWith('.js')).length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const res = await request.get(asset);
      expect(res.status(), asset).toBe(200);
      expect(res.headers()['cache-control'], asset).toContain('immutable');
      expect(res.headers()['cache-control'], asset).toMatch(/max-age=31536000/);
      if (asset.endsWith('.js')) expect(res.headers()['content-type']).toMatch(/javascript/);
    }
  });

  test('pages are gzip-compressed when the client accepts gzip', async ({ request }) => {
    const res = await request.get('/guides', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.status()).toBe(200);
    expect(res.headers()['content-encoding']).toBe('gzip');
    expect(res.headers()['vary']?.toLowerCase()).toContain('accept-encoding');
    // The client decompressed it: the body is the real page.
    expect(await res.text()).toContain('導遊列表');
  });

  test('uploads are served as immutable webp; unknown keys are 404', async ({ request }) => {
    const html = await (await request.get('/guides')).text();
    const avatar = html.match(/src="(\/uploads\/[\w-]{43}\.webp)"/)?.[1];
    expect(avatar, 'a guide avatar on /guides').toBeTruthy();
    const res = await request.get(avatar!);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('image/webp');
    expect(res.headers()['cache-control']).toContain('immutable');
    const bytes = await res.body();
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');

    const key = avatar!.slice('/uploads/'.length, -'.webp'.length);
    const revalidate = await request.get(avatar!, { headers: { 'If-None-Match': `"${key}"` } });
    expect(revalidate.status()).toBe(304);

    const missing = await request.get(`/uploads/${'0'.repeat(64)}.webp`);
    expect(missing.status()).toBe(404);
    const junk = await request.get('/uploads/..%2F..%2Fpackage.json');
    expect(junk.status()).toBe(404);
  });

  test('the preferences form refuses bad values with a translated message and changes nothing', async ({ request, baseURL }) => {
    const origin = new URL(baseURL!).origin;
    const res = await request.post('/preferences', {
      form: { intent: 'theme', theme: 'neon', redirectTo: '/guides' },
      headers: { Origin: origin, 'Accept-Language': 'en' },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(400);
    expect(res.headers()['set-cookie']).toBeUndefined();
    expect(await res.text()).toContain('Invalid setting');

    const ok = await request.post('/preferences', {
      form: { intent: 'theme', theme: 'dark', redirectTo: '//evil.example/' },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(ok.status()).toBe(302);
    expect(ok.headers()['location']).toBe('/'); // off-site redirect targets are ignored
    expect(ok.headers()['set-cookie']).toMatch(/^theme=/);
  });

  test('a preferences post from another site is refused', async ({ request }) => {
    const res = await request.post('/preferences', {
      form: { intent: 'locale', locale: 'en', redirectTo: '/' },
      headers: { Origin: 'https://evil.example' },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(403);
    expect(res.headers()['set-cookie']).toBeUndefined();
  });
});
