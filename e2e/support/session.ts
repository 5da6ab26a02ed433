/** Shared e2e helpers: log in through the UI or the API, call the API, read cookies. */
import { expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { MAIN, PASSWORD, VERSION } from '../servers.ts';

export const TOKEN_COOKIE = `${VERSION}-token`;
export const UUID_COOKIE = `${VERSION}-uuid`;

/** Logs in through the login form and waits for the home tab. */
export async function loginUI(page: Page, name: string, opts: { base?: string; password?: string } = {}) {
  const base = opts.base ?? MAIN;
  await page.goto(`${base}/home/login`);
  await page.getByTestId('login-name').fill(name);
  await page.getByTestId('login-password').fill(opts.password ?? PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/home\/index$/);
  await expect(page.getByTestId('home')).toBeVisible();
}

export async function apiLogin(request: APIRequestContext, name: string, base = MAIN): Promise<string> {
  const res = await request.post(`${base}/api/login`, { data: { name, password: PASSWORD } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}

/** Logs in by API and puts the token cookie in the context (fast path for specs not about login). */
export async function loginByCookie(context: BrowserContext, request: APIRequestContext, name: string, base = MAIN) {
  const token = await apiLogin(request, name, base);
  await context.addCookies([{ name: TOKEN_COOKIE, value: token, url: base }]);
  return token;
}

export async function api<T = unknown>(
  request: APIRequestContext,
  path: string,
  body: unknown,
  token?: string,
  base = MAIN,
): Promise<{ status: number; body: { code: number; message: string; data: T } }> {
  const res = await request.post(`${base}/api/${path}`, {
    data: body,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status(), body: (await res.json()) as { code: number; message: string; data: T } };
}

export async function cookie(context: BrowserContext, name: string) {
  return (await context.cookies()).find((c) => c.name === name);
}

/** The open tabs' paths, in order. */
export async function tabPaths(page: Page): Promise<string[]> {
  return page.getByTestId('tab').evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
}

/**
 * The console's (debounced) save of one user setting whose value passes `done`, answered by the
 * server: what a spec waits for before another browser reads the setting, instead of a fixed pause.
 * Start waiting before the change that causes the save.
 */
export function settingSaved(page: Page, key: string, done: (value: unknown) => boolean) {
  return page.waitForResponse((r) => {
    if (!r.url().endsWith('/api/user/settings/save') || r.status() !== 200) return false;
    const body = r.request().postDataJSON() as { key: string; value: unknown };
    return body.key === key && done(body.value);
  });
}
