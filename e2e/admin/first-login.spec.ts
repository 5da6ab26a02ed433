/**
 * Issue 36 #22: a new user's first login, with a one-time password, fired four calls that the
 * server refused with 403 behind the forced password change (the page's calls and the menu's
 * badges, asked for while `me` was still on its way). Now nothing is asked for until the password
 * is changed, on the login and on a reload alike; then the page loads its calls.
 */
import { expect as baseExpect, test, type Page } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { aesApi } from '../support/aes.ts';
import { apiLogin } from '../support/session.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

/** Every API answer of the page refused with 403. */
function refusals(page: Page) {
  const seen: string[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() === 403) seen.push(new URL(r.url()).pathname);
  });
  return seen;
}

test('first login with a one-time password: no call refused behind the password change, nor after a reload', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const name = `first.${Date.now().toString(36)}`;
  const password = 'Quiet-Harbour-73';
  const adminToken = await apiLogin(request, 'admin');
  const made = await aesApi<{ password: string }>(
    request,
    'admin/user/create',
    { name, displayName: 'First login', role: 'customer', customerId: 1 },
    adminToken,
  );
  expect(made.status).toBe(200);
  const otp = made.body.data.password;

  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  const refused = refusals(page);
  await page.goto(`${MAIN}/home/login`);
  await page.getByTestId('login-name').fill(name);
  await page.getByTestId('login-password').fill(otp);
  await page.getByTestId('login-submit').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('#old_password')).toBeVisible();
  // Everything the loading asked for has answered.
  await page.waitForLoadState('networkidle');
  expect(refused).toEqual([]);

  // A reload while the password is still to change: the same.
  await page.reload();
  await expect(dialog.locator('#old_password')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(refused).toEqual([]);

  // Changed: the home page and its calls load, none refused.
  await dialog.locator('#old_password').fill(otp);
  await dialog.locator('#password').fill(password);
  await dialog.locator('#confirm').fill(password);
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByTestId('home')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(refused).toEqual([]);
  await context.close();
});
