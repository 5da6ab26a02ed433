/**
 * Issue 28, item 4: once the Order List has loaded, 查询, 重置 and the tab's 刷新 each ask the
 * server again, so an order created meanwhile (in another tab, by a colleague, by the API) shows.
 * Before, all three answered from the cached page and the new order stayed hidden.
 */
import { expect as baseExpect, test, type Page } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { createOrder } from '../support/orders.ts';
import { loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });
const table = (page: Page) => page.getByTestId('order-table');

test('a new order shows after 查询, 重置 and the tab’s 刷新', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const ctx = await browser.newContext();
  const token = await loginByCookie(ctx, request, 'demo');
  const page = await ctx.newPage();
  const errors = watchPageErrors(page);
  await page.goto(`${MAIN}/home/order/list`);
  await expect(table(page).locator('tbody tr.ant-table-row').first()).toBeVisible({ timeout: 60_000 });

  const first = await createOrder(request, token);
  await expect(page.getByTestId(`order-${first.orderNo}`)).toHaveCount(0);
  await page.getByTestId('list-search').click();
  await expect(page.getByTestId(`order-${first.orderNo}`)).toBeVisible();

  const second = await createOrder(request, token);
  await page.getByTestId('list-reset').click();
  await expect(page.getByTestId(`order-${second.orderNo}`)).toBeVisible();

  const third = await createOrder(request, token);
  await page.locator('[data-testid="tab"][data-path="/order/list"]').click({ button: 'right' });
  await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: '刷新' }).click();
  await expect(page.getByTestId(`order-${third.orderNo}`)).toBeVisible();
  expect(errors).toEqual([]);
  await ctx.close();
});
