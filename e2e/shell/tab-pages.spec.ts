/**
 * Issue 28, findings 9 and 14: the search panel does not offer pages of one record and such a
 * page opened without its id says what to do; tab titles carry their module where the bare
 * title names several pages; one tab per page whatever query it was opened with.
 */
import { expect, test } from '../support/test.ts';
import { tabPaths } from '../support/session.ts';
import { consoleWithHomeTabOnly, openInConsole as open, tab } from '../support/tabs.ts';

test.describe('tab pages and titles', () => {
  test('finding 9: search offers no page that needs an id; opened without one, a page says what to do', async ({
    page,
    context,
    request,
  }) => {
    await consoleWithHomeTabOnly(page, context, request);
    await page.keyboard.press('s');
    const panel = page.getByTestId('search-panel');
    await expect(page.getByTestId('search-input')).toBeFocused();
    await page.getByTestId('search-input').fill('商品');
    await expect(panel.locator('[data-route="item.list"]')).toBeVisible();
    await expect(panel.locator('[data-route="item.update"]')).toHaveCount(0);
    await expect(panel.locator('[data-route="item.info"]')).toHaveCount(0);
    await page.getByTestId('search-input').fill('订单');
    await expect(panel.locator('[data-route="order.list"]')).toBeVisible();
    await expect(panel.locator('[data-route="order.info"]')).toHaveCount(0);
    await expect(panel.locator('[data-route="order.update"]')).toHaveCount(0);
    await page.keyboard.press('Escape');

    await open(page, '/item/update');
    const view = page.locator('[data-tab-view="/item/update"]');
    await expect(view.getByTestId('needs-record')).toContainText('请从列表中打开');
    await view.getByTestId('needs-record-list').click();
    await expect(tab(page, '/item/list')).toHaveClass(/is-active/);
  });

  test('finding 14: titles carry the module; one tab per page whatever its query', async ({
    page,
    context,
    request,
  }) => {
    await consoleWithHomeTabOnly(page, context, request);
    await page.getByTestId('language-switch').click();
    await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: 'English' }).click();
    await expect(page.getByTestId('header-menu')).toContainText('Order Management');

    await open(page, '/subscribeTake/create');
    await open(page, '/selfSendTake/list');
    await open(page, '/order/batchList');
    await open(page, '/storageOrder/list');
    await expect(tab(page, '/subscribeTake/create')).toHaveText('Subscribe Take · Create');
    await expect(tab(page, '/selfSendTake/list')).toHaveText('Self Delivery Management · List');
    await expect(tab(page, '/order/batchList')).toHaveText('Order Management · Batch List');
    await expect(tab(page, '/storageOrder/list')).toHaveText('Inbound Order Management · Batch List');
    await expect(page).toHaveTitle('Import E-commerce Logistics - Inbound Order Management · Batch List');
    // A title no other page has stays as it is.
    await open(page, '/order/list');
    await expect(tab(page, '/order/list')).toHaveText('Order List');
    // The aside shows English titles whole (they were cut to "Create Importer O…" twice).
    const labels = page.getByTestId('aside').locator('.menu-label');
    await expect(labels.filter({ hasText: 'Create Importer Order Alone' })).toBeVisible();
    const cut = await labels.evaluateAll((els) =>
      els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent),
    );
    expect(cut).toEqual([]);

    // The batch list opened again with a query: the same tab, now at that address.
    await open(page, '/order/batchList?status=failed');
    expect((await tabPaths(page)).filter((p) => p.startsWith('/order/batchList'))).toEqual([
      '/order/batchList?status=failed',
    ]);

    await page.getByTestId('language-switch').click();
    await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: '简体中文' }).click();
    await expect(tab(page, '/storageOrder/list')).toHaveText('入库单管理 · 批次列表');
    await expect(tab(page, '/subscribeTake/create')).toHaveText('预约');
  });
});
