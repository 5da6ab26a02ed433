/**
 * Issue 36 #23: with the server unreachable, the console stacked two modals titled in English
 * ("TypeError", "Failed to fetch") over the zh page, one per failed call. Now one message, in the
 * user's language, however many calls fail together; the page works again once the server answers.
 * A reload meanwhile keeps the session (it logged the user out) and offers to try again.
 */
import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { loginByCookie } from '../support/session.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

test('server unreachable: one message in the user’s language, not the browser’s words, however many calls fail', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ locale: 'zh-CN' });
  await loginByCookie(context, request, 'demo');
  const page = await context.newPage();
  await page.goto(`${MAIN}/home/index`);
  await expect(page.getByTestId('home')).toBeVisible();

  // The network goes: every call of the console fails with no answer.
  let failed = 0;
  await page.route('**/api/**', async (route) => {
    failed++;
    await route.abort('internetdisconnected');
  });
  await page.getByTestId('aside').getByText('订单管理').first().click();
  await page.getByTestId('aside').getByText('订单列表', { exact: true }).click();
  await expect.poll(() => failed).toBeGreaterThanOrEqual(2);
  const modal = page.locator('.ant-modal-confirm');
  await expect(modal).toHaveCount(1);
  await expect(modal).toContainText('无法连接服务器');
  await expect(modal).toContainText('请检查网络连接');
  await expect(page.locator('body')).not.toContainText('TypeError');
  await expect(page.locator('body')).not.toContainText('Failed to fetch');

  // Back again: the message closes and the page's next call answers.
  await page.unroute('**/api/**');
  await modal.getByRole('button', { name: /确\s*定/ }).click();
  await expect(modal).toHaveCount(0);

  // A reload while the network is down keeps the session (it once logged the user out with
  // "验证失败，请重新登录"): the page says so and offers to try again, which works once it is back.
  await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
  await page.reload();
  await expect(page.getByTestId('guard-retry')).toBeVisible();
  await expect(page).toHaveURL(/\/home\/order\/list$/);
  await expect(modal).toHaveCount(1);
  await expect(page.locator('body')).not.toContainText('验证失败');
  await page.unroute('**/api/**');
  await modal.getByRole('button', { name: /确\s*定/ }).click();
  await page.getByTestId('guard-retry').click();
  await expect(page.getByTestId('aside')).toBeVisible();
  await expect(page).toHaveURL(/\/home\/order\/list$/);
  await context.close();
});
