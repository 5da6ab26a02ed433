import { expect, test, type Request } from '../support/test.ts';
import { MAIN, PASSWORD, SHORT_TTL } from '../servers.ts';
import { TOKEN_COOKIE, UUID_COOKIE, api, apiLogin, cookie, loginUI } from '../support/session.ts';

test.describe('session rules', () => {
  test('401: one refresh, concurrent calls wait and are replayed with the new token', async ({ page, context }) => {
    await loginUI(page, 'demo', { base: SHORT_TTL });
    // A full load on another tab: home stays unmounted until it is clicked.
    await page.goto(`${SHORT_TTL}/home/seeMore`);
    await expect(page.getByTestId('see-more')).toBeVisible();
    const before = (await cookie(context, TOKEN_COOKIE))?.value;

    const seen: { path: string; status: number; auth: string }[] = [];
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (!url.pathname.startsWith('/api/')) return;
      const req: Request = res.request();
      seen.push({ path: url.pathname.slice(5), status: res.status(), auth: req.headers()['authorization'] ?? '' });
    });
    await page.waitForTimeout(6_500); // the 5 s access token expires
    await page.getByTestId('tab').filter({ hasText: '首页' }).click();
    await expect(page.getByTestId('status-counts')).toBeVisible();
    await expect(page.getByTestId('home-notices')).toBeVisible();
    await expect.poll(() => seen.filter((s) => s.path === 'order/stats' && s.status === 200).length).toBe(1);
    await expect.poll(() => seen.filter((s) => s.path === 'message' && s.status === 200).length).toBe(1);

    const refreshes = seen.filter((s) => s.path === 'refresh');
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0].status).toBe(200);
    expect(refreshes[0].auth).toBe(`Bearer ${before}`);
    for (const path of ['order/stats', 'message']) {
      const calls = seen.filter((s) => s.path === path);
      expect(calls.map((c) => c.status)).toEqual([401, 200]);
      expect(calls[1].auth).not.toBe(calls[0].auth);
    }
    const after = (await cookie(context, TOKEN_COOKIE))?.value;
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    expect(seen.find((s) => s.path === 'order/stats' && s.status === 200)?.auth).toBe(`Bearer ${after}`);
    await expect(page).toHaveURL(/\/home\/index$/);
  });

  test('a failed refresh sends the user to login with the redirect', async ({ page, context, request }) => {
    await loginUI(page, 'demo2', { base: SHORT_TTL });
    const token = (await cookie(context, TOKEN_COOKIE))!.value;
    // Log the session out server-side: refresh is then refused.
    expect((await api(request, 'logout', {}, token, SHORT_TTL)).status).toBe(200);
    await page.getByRole('link', { name: '查看全部' }).click();
    await expect(page).toHaveURL(/\/home\/login\?redirect=%2FseeMore$/);
  });

  test('430: dialog with the server message, then cookies cleared and reload', async ({ page, context, request }) => {
    await loginUI(page, 'demo2');
    const operator = await apiLogin(request, 'operator');
    const ended = await api<{ ended: number }>(request, 'session/end', { userName: 'demo2' }, operator);
    expect(ended.status).toBe(200);
    expect(ended.body.data.ended).toBeGreaterThan(0);

    const answer = page.waitForResponse((r) => r.url().endsWith('/api/notifications'));
    await page.getByRole('link', { name: '查看全部' }).click();
    const res = await answer;
    expect(res.status()).toBe(430);
    const { message } = (await res.json()) as { message: string };
    const dialog = page.locator('.ant-modal-confirm-warning');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(message);
    await expect(dialog).toContainText('登录状态已失效');
    await dialog.locator('.ant-btn-primary').click();
    await expect(page).toHaveURL(/\/home\/login/);
    expect(await cookie(context, TOKEN_COOKIE)).toBeUndefined();
    expect(await cookie(context, UUID_COOKIE)).toBeUndefined();
  });

  test('cross-tab logout: another tab setting isLogin false sends this tab to login', async ({ context }) => {
    const first = await context.newPage();
    await loginUI(first, 'agent');
    const second = await context.newPage();
    await second.goto(`${MAIN}/home/seeMore`);
    await expect(second.getByTestId('see-more')).toBeVisible();

    await second.getByTestId('user-menu').click();
    await second.getByRole('menuitem', { name: '注销' }).click();
    await second.locator('.ant-modal-confirm .ant-btn-primary').click();
    await expect(second).toHaveURL(/\/home\/login$/);
    // The first tab did nothing itself: the storage event took it to login (keeping where it was).
    await expect(first).toHaveURL(/\/home\/login(\?redirect=%2Findex)?$/);
    await expect(first.getByTestId('login-submit')).toBeVisible();
  });

  test('requests carry bearer, language and JSON; me travels AES-encrypted', async ({ page }) => {
    const requests: Request[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/')) requests.push(r);
    });
    await loginUI(page, 'demo');
    const me = requests.find((r) => r.url().endsWith('/api/me'))!;
    expect(me.headers()['aes']).toBe('1');
    expect(me.headers()['accept-language']).toBe('zh-CN');
    expect(me.headers()['content-type']).toBe('application/json');
    expect(me.headers()['authorization']).toMatch(/^Bearer .+/);
    const body = me.postDataJSON() as { data: string; iv: string };
    expect(Object.keys(body).sort()).toEqual(['data', 'iv']);
    expect(Buffer.from(body.iv, 'base64')).toHaveLength(12);
    const res = await me.response();
    expect(res?.headers()['aes']).toBe('1');
    const envelope = (await res!.json()) as { data: unknown; iv: string };
    expect(typeof envelope.data).toBe('string');
    // …and the console decrypted it: the greeting shows the name.
    await expect(page.getByTestId('user-menu')).toContainText('演示客户');
  });

  test('leaving a page while it loads the session keeps the session: no logout, the token still works', async ({
    page,
    context,
    request,
  }) => {
    // Signed in, the home page loads the session (`me`, settings, badges); the user goes elsewhere
    // at once (a bookmark, a reload), and the navigation cuts that loading off. It once counted as
    // a failed session: the page logged out and the next page found its token revoked.
    await page.goto(`${MAIN}/home/login`);
    await page.getByTestId('login-name').fill('demo2');
    await page.getByTestId('login-password').fill(PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/home\/index$/);
    const token = (await cookie(context, TOKEN_COOKIE))!.value;
    await page.goto(`${MAIN}/home/seeMore`);
    await expect(page.getByTestId('see-more')).toBeVisible();
    await expect(page).toHaveURL(/\/home\/seeMore$/);
    expect((await cookie(context, TOKEN_COOKIE))?.value).toBe(token);
    expect((await api(request, 'order/stats', {}, token)).status).toBe(200);
  });
});
