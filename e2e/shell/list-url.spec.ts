/**
 * Issue 28, item 15: a paged list's page, sort and filters live in its tab's URL, so a reload,
 * a pasted link (another browser, logged in), switching tabs and the browser's back restore
 * the list. Before, they lived in component state: a reload showed page 1 of the whole list.
 * Order List (paging, sort, filters), Batch List (its filter form and its find box) and Item
 * List (a text filter and a date range as ISO days); one user, one seed, no fixed sleeps.
 */
import { expect, test, type Page } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { choose, column, listOrders, totalText } from '../support/orders.ts';
import { loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';
import { consoleWithHomeTabOnly, openInConsole } from '../support/tabs.ts';

const orderTable = (page: Page) => page.getByTestId('order-table');
/** The table's wrapper, which holds its pager too. */
const wrapper = (page: Page) =>
  orderTable(page).locator('xpath=ancestor-or-self::div[contains(concat(" ", @class, " "), " ant-table-wrapper ")]');
/** The order numbers shown, once the rows (and so the saved columns) are there. */
async function orderNos(page: Page) {
  await expect(orderTable(page).locator('tbody tr.ant-table-row').first()).toBeVisible({ timeout: 60_000 });
  return column(orderTable(page), '订单号');
}
const search = (page: Page) => new URL(page.url()).search;
/** The select holding the element of `testId`: its text is the chosen option's label. */
const selected = (page: Page, testId: string) =>
  page.getByTestId(testId).locator('xpath=ancestor-or-self::*[contains(concat(" ", @class, " "), " ant-select ")][1]');

/**
 * The address is `path` and the tab shows it: the router moves to a new address in a
 * transition, after the browser's URL has changed.
 */
async function at(page: Page, path: string) {
  await expect(page).toHaveURL(`${MAIN}/home${path}`);
  await expect(page.locator(`[data-tab-view="${path}"]`)).toBeVisible();
}

/** Opens a page inside the running console (as a menu click does), so kept tabs stay mounted. */
async function open(page: Page, path: string) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', `/home${p}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

test('lists keep page, sort and filters in the URL: reload, pasted link, tabs and back', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const ctx = await browser.newContext();
  const token = await loginByCookie(ctx, request, 'demo');
  const page = await ctx.newPage();
  const errors = watchPageErrors(page);

  // What the server answers for the list the URL will hold: printed orders, by order number
  // ascending, 10 a page, page 2.
  const wanted = { status: 'printed', sort: 'orderNo', order: 'asc', limit: 10 };
  const page1 = await listOrders(request, token, wanted);
  const page2 = await listOrders(request, token, { ...wanted, offset: 10 });
  expect(page1.total).toBeGreaterThan(10);

  await page.goto(`${MAIN}/home/order/list`);
  await expect(orderTable(page).locator('tbody tr.ant-table-row').first()).toBeVisible({ timeout: 60_000 });
  expect(search(page)).toBe('');

  // Typed but not searched: not in the URL.
  await choose(page, page.getByTestId('list-status'), '已打印');
  expect(search(page)).toBe('');
  await page.getByTestId('list-search').click();
  await at(page, '/order/list?status=printed');
  await wrapper(page).locator('.ant-pagination-options .ant-select').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '10' }).first().click();
  await at(page, '/order/list?limit=10&status=printed');
  await orderTable(page).locator('th').filter({ hasText: '订单号' }).click();
  await at(page, '/order/list?limit=10&sort=orderNo&order=asc&status=printed');
  await wrapper(page).locator('.ant-pagination-item-2').click();
  const listUrl = '/order/list?offset=10&limit=10&sort=orderNo&order=asc&status=printed';
  await at(page, listUrl);
  await expect(await orderNos(page)).toHaveText(page2.list.map((r) => r.orderNo));

  // A reload: the same page of the same list, the filter form and the pager showing it.
  await page.reload();
  await at(page, listUrl);
  await expect(await orderNos(page)).toHaveText(page2.list.map((r) => r.orderNo));
  await expect(selected(page, 'list-status')).toContainText('已打印');
  await expect(wrapper(page).locator('.ant-pagination-item-active')).toHaveText('2');
  await expect(orderTable(page).locator('th.ant-table-column-sort')).toContainText('订单号');

  // Another tab and back to this one: each tab keeps its own URL.
  await open(page, '/order/batchList');
  await at(page, '/order/batchList');
  await expect(page.getByTestId('batch-table')).toBeVisible();
  await page.getByTestId('filter-batchNo').fill('NO-SUCH-BATCH');
  await page.getByTestId('batch-search').click();
  await at(page, '/order/batchList?batchNo=NO-SUCH-BATCH');
  await page.locator('[data-testid="tab"][data-path^="/order/list"]').click();
  await at(page, listUrl);
  await expect(await orderNos(page)).toHaveText(page2.list.map((r) => r.orderNo));
  await page.locator('[data-testid="tab"][data-path^="/order/batchList"]').click();
  await at(page, '/order/batchList?batchNo=NO-SUCH-BATCH');
  await expect(page.getByTestId('filter-batchNo')).toHaveValue('NO-SUCH-BATCH');

  // Back: the previous list states, the form following them.
  await page.getByTestId('batch-reset').click();
  await at(page, '/order/batchList');
  await expect(page.getByTestId('filter-batchNo')).toHaveValue('');
  await page.goBack();
  await at(page, '/order/batchList?batchNo=NO-SUCH-BATCH');
  await expect(page.getByTestId('filter-batchNo')).toHaveValue('NO-SUCH-BATCH');
  await page.goBack();
  await at(page, listUrl);
  // Past the batch list's two steps and this list's own page 2.
  for (const step of [
    '/order/batchList?batchNo=NO-SUCH-BATCH',
    '/order/batchList',
    listUrl,
    '/order/list?limit=10&sort=orderNo&order=asc&status=printed',
  ]) {
    await page.goBack();
    await at(page, step);
  }
  await expect(await orderNos(page)).toHaveText(page1.list.map((r) => r.orderNo));
  await expect(wrapper(page).locator('.ant-pagination-item-active')).toHaveText('1');

  // The link pasted in another browser (the same user, logged in there): the same list.
  const other = await browser.newContext();
  await loginByCookie(other, request, 'demo');
  const pasted = await other.newPage();
  const pastedErrors = watchPageErrors(pasted);
  await pasted.goto(`${MAIN}/home${listUrl}`);
  await expect(await orderNos(pasted)).toHaveText(page2.list.map((r) => r.orderNo));
  await expect(selected(pasted, 'list-status')).toContainText('已打印');

  expect(pastedErrors).toEqual([]);
  await other.close();
  expect(errors).toEqual([]);
  await ctx.close();
});

test('a pasted URL with values a list cannot take shows the default list; dates come back as the form’s range', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const token = await loginByCookie(context, request, 'demo');
  const errors = watchPageErrors(page);
  // Dropped, never sent: the whole list, no error.
  const all = await listOrders(request, token, {});
  await page.goto(`${MAIN}/home/order/list?offset=-3&limit=7&sort=nope&order=up&status=lost&printFlag=maybe`);
  await expect(await orderNos(page)).toHaveText(all.list.map((r) => r.orderNo));
  await expect(totalText(orderTable(page))).toHaveText(all.total.toLocaleString('en-US'));
  await itemList(page);
  expect(errors).toEqual([]);
});

/** Item List: a text filter and a date range (the URL's ISO days) fill the form from a pasted link and after back. */
async function itemList(page: Page) {
  await page.goto(`${MAIN}/home/item/list?name=%E7%9A%84&dateFrom=2020-01-01&dateTo=2099-12-31`);
  await expect(page.getByTestId('item-table')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('list-name')).toHaveValue('的');
  const range = page
    .getByTestId('list-range')
    .locator('xpath=ancestor-or-self::*[contains(concat(" ", @class, " "), " ant-picker ")][1]')
    .locator('input');
  await expect(range.first()).toHaveValue('2020-01-01');
  await expect(range.last()).toHaveValue('2099-12-31');
  await page.getByTestId('list-name').fill('');
  await page.getByTestId('list-search').click();
  await at(page, '/item/list?dateFrom=2020-01-01&dateTo=2099-12-31');
  await page.goBack();
  await at(page, '/item/list?name=%E7%9A%84&dateFrom=2020-01-01&dateTo=2099-12-31');
  await expect(page.getByTestId('list-name')).toHaveValue('的');
}

/**
 * Issue 40, item 4 (react-admin's remembered list parameters): a list opened again from the
 * menu shows the filters it was last left with, whether its tab is still open or was closed;
 * before, the menu's bare address replaced the tab's and the list started over.
 */
test('a list opened from the menu comes back with its last filters, its tab open or closed', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  // Home alone: a batch-list tab another spec left open for this user would be the one shown.
  await consoleWithHomeTabOnly(page, context, request);
  const errors = watchPageErrors(page);
  const aside = page.getByTestId('aside');
  // By route name: "订单列表" is also in "错误订单列表" and "异常订单列表".
  const menu = (route: string) => aside.locator(`.ant-menu-item[data-menu-id$="-${route}"]`);
  await openInConsole(page, '/order/list');
  await expect(orderTable(page)).toBeVisible({ timeout: 60_000 });

  await menu('order.batchList').click();
  await at(page, '/order/batchList');
  await page.getByTestId('filter-batchNo').fill('NO-SUCH-BATCH');
  await page.getByTestId('batch-search').click();
  const filtered = '/order/batchList?batchNo=NO-SUCH-BATCH';
  await at(page, filtered);

  // Away and back by the menu, the tab still open.
  await menu('order.list').click();
  await at(page, '/order/list');
  await menu('order.batchList').click();
  await at(page, filtered);
  await expect(page.getByTestId('filter-batchNo')).toHaveValue('NO-SUCH-BATCH');

  // The tab closed, then opened from the menu again.
  await page.locator(`[data-testid="tab"][data-path="${filtered}"]`).getByTestId('tab-close').click();
  await at(page, '/order/list');
  await menu('order.batchList').click();
  await at(page, filtered);
  await expect(page.getByTestId('filter-batchNo')).toHaveValue('NO-SUCH-BATCH');

  // Reset is remembered too: the menu then opens the whole list.
  await page.getByTestId('batch-reset').click();
  await at(page, '/order/batchList');
  await menu('order.list').click();
  await at(page, '/order/list');
  await menu('order.batchList').click();
  await at(page, '/order/batchList');
  expect(errors).toEqual([]);
});
