import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';

// The first load of the frame competes with other work on the shared test machine.
const expect = baseExpect.configure({ timeout: 30_000 });

/** Issue 11 "speed of the first screens": compressed, long-cached assets; a page that revalidates. */
test.describe('static console files', () => {
  test('hashed JS and CSS: brotli or gzip as the client accepts, cached a year; index.html no-cache', async ({
    request,
  }) => {
    const index = await request.get(`${MAIN}/home/`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(index.status()).toBe(200);
    expect(index.headers()['cache-control']).toBe('no-cache');
    const html = await index.text();
    const js = /src="(\/home\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const css = /href="(\/home\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    expect(js).toBeTruthy();
    expect(css).toBeTruthy();

    // The SPA fallback (any console address) revalidates too.
    const deep = await request.get(`${MAIN}/home/order/list`);
    expect(deep.headers()['cache-control']).toBe('no-cache');

    for (const asset of [js!, css!]) {
      const plain = await request.get(`${MAIN}${asset}`, { headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers()['content-encoding']).toBeUndefined();
      expect(plain.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
      const body = await plain.body();

      for (const [accept, encoding] of [
        ['br, gzip, deflate', 'br'],
        ['gzip, deflate', 'gzip'],
      ] as const) {
        const res = await request.get(`${MAIN}${asset}`, { headers: { 'accept-encoding': accept } });
        expect(res.status()).toBe(200);
        expect(res.headers()['content-encoding'], `${asset} for ${accept}`).toBe(encoding);
        expect(res.headers()['vary']?.toLowerCase()).toContain('accept-encoding');
        expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(res.headers()['content-type']).toMatch(asset.endsWith('.js') ? /javascript/ : /text\/css/);
        expect(Number(res.headers()['content-length'])).toBeLessThan(body.length / 2);
        // Playwright decodes the body: it must be the same file.
        expect((await res.body()).equals(body)).toBe(true);
      }
    }
  });

  test('Chromium receives the scripts compressed', async ({ page }) => {
    // Only the headers are read in the listener: a body read there could still be pending when a
    // late chunk arrives after the test has ended, and fail it (CI, 2026-12-06).
    const seen: { url: string; encoding: string }[] = [];
    page.on('response', (r) => {
      if (/\/home\/assets\/.+\.js$/.test(r.url()))
        seen.push({ url: r.url(), encoding: r.headers()['content-encoding'] ?? 'none' });
    });
    await page.goto(`${MAIN}/home/login`);
    await expect(page.getByTestId('login-name')).toBeVisible();
    await page.waitForLoadState('networkidle');
    // Files under 1 KB are not worth compressing; every other one arrives compressed.
    const scripts: typeof seen = [];
    for (const s of seen) {
      const plain = await page.request.get(s.url, { headers: { 'accept-encoding': 'identity' } });
      if ((await plain.body()).length >= 1024) scripts.push(s);
    }
    expect(scripts.length).toBeGreaterThan(1);
    for (const s of scripts) expect(['br', 'gzip'], s.url).toContain(s.encoding);
  });
});
