/**
 * Issue 28, item 8: 重置密码 and 结束会话 on the Users page ask first. Cancelling leaves the
 * account as it was (its password still logs in, its session still answers); confirming does it.
 */
import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { aesApi } from '../support/aes.ts';
import { apiLogin, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

test('reset password and end sessions ask first; cancel changes nothing', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const name = `conf.${Date.now().toString(36)}`;
  const adminToken = await apiLogin(request, 'admin');
  const made = await aesApi<{ password: string }>(
    request,
    'admin/user/create',
    { name, displayName: 'Confirm me', role: 'operator', customerId: null },
    adminToken,
  );
  expect(made.status).toBe(200);
  const login = (password: string) => request.post(`${MAIN}/api/login`, { data: { name, password } });
  const first = await login(made.body.data.password);
  expect(first.status()).toBe(200);
  const userToken = ((await first.json()) as { data: { access_token: string } }).data.access_token;
  const me = async () => (await aesApi(request, 'me', {}, userToken)).status;
  expect(await me()).toBe(200);

  const ctx = await browser.newContext();
  await loginByCookie(ctx, request, 'admin');
  const page = await ctx.newPage();
  const errors = watchPageErrors(page);
  await page.goto(`${MAIN}/home/system/users`);
  const row = page.getByTestId('admin-users').getByRole('row').filter({ hasText: name });
  const popover = page.locator('.ant-popconfirm:not(.ant-popover-hidden)');

  // End sessions: cancel keeps the session; OK ends it.
  await row.getByTestId('user-end-sessions').click();
  await expect(popover).toContainText(`结束 ${name} 的所有会话`);
  await popover.getByRole('button', { name: /取\s*消/ }).click();
  await expect(popover).toBeHidden();
  expect(await me()).toBe(200);
  await row.getByTestId('user-end-sessions').click();
  await popover.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('已结束')).toBeVisible();
  expect(await me()).toBe(430);

  // Reset password: cancel keeps the password; OK gives a new one and the old one stops working.
  await row.getByTestId('user-reset-password').click();
  await expect(popover).toContainText(`重置 ${name} 的密码`);
  await popover.getByRole('button', { name: /取\s*消/ }).click();
  await expect(popover).toBeHidden();
  expect((await login(made.body.data.password)).status()).toBe(200);
  await row.getByTestId('user-reset-password').click();
  await popover.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByRole('dialog')).toContainText(name);
  expect((await login(made.body.data.password)).status()).not.toBe(200);
  expect(errors).toEqual([]);
  await ctx.close();
});
