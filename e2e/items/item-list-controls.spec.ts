/**
 * Item List, every control (issue 12): the pager and the size changer reach other rows, a sort
 * keeps paging, each filter narrows the list exactly like the API, the JAN is a real link, the
 * search panel's hotkeys open the item list and the failed list.
 */
import { expect as baseExpect, test, type Page } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { choose } from '../support/orders.ts';
import { createItem, listItems, type ItemRow } from '../support/items.ts';
import { aesApi } from '../support/aes.ts';
import { apiLogin, loginByCookie } from '../support/session.ts';
import {
  choosePageSize,
  expectRows,
  gotoPage,
  rowKeys,
  sortBy,
  watchPageErrors,
  wrapperOf,
} from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });
const table = (page: Page) => page.getByTestId('item-table');
const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
const search = (page: Page) => page.getByTestId('list-search').click();

test.describe('Item List controls', () => {
  test.describe.configure({ timeout: 240_000 });
  const group = `g${Date.now() % 1e6}`;

  test('paging, size, sort and every filter agree with the API', async ({ page, context, request }) => {
    const errors = watchPageErrors(page);
    page.setDefaultTimeout(30_000);
    const token = await loginByCookie(context, request, 'demo');
    const operator = await apiLogin(request, 'operator');
    // 45 items of this run's group, a few failed, one with a distinctive name.
    const parts = (await aesApi<{ id: number }[]>(request, 'item/parts', {}, token)).body.data;
    expect(parts.length).toBeGreaterThan(0);
    const made: ItemRow[] = [];
    // Every fifth: brand 明治 (3), category 零食 (8, under 食品), the first part.
    for (let i = 0; i < 45; i++)
      made.push(
        await createItem(request, token, {
          group,
          nameZh: i === 7 ? '独特名称抹茶' : `控件商品${i}`,
          ...(i % 5 === 0 ? { brandId: 3, categoryId: 8, partId: parts[0]!.id } : {}),
        }),
      );
    for (const it of made.slice(0, 3))
      expect((await aesApi(request, 'item/fail', { id: it.id, reason: '缺少图片' }, operator)).status).toBe(200);

    await page.goto(`${MAIN}/home/item/list`);
    await page.getByTestId('list-group').fill(group);
    await search(page);
    const first = await listItems(request, token, { group });
    expect(first.total).toBe(45);
    await expectRows(table(page), ids(first.list));

    const asked = page.waitForRequest((r) => r.url().endsWith('/api/items'));
    await gotoPage(table(page), 2);
    await asked;
    await expectRows(table(page), ids((await listItems(request, token, { group, offset: 20 })).list));
    await wrapperOf(table(page)).locator('.ant-pagination-next').click();
    await expectRows(table(page), ids((await listItems(request, token, { group, offset: 40 })).list));

    await choosePageSize(page, table(page), 50);
    await expect.poll(() => rowKeys(table(page))).toHaveLength(45);

    // Sort by JAN: ascending, then descending; a size of 20 and page 2 keep the sort.
    await sortBy(table(page), 'JAN');
    await expectRows(
      table(page),
      ids((await listItems(request, token, { group, limit: 50, sort: 'jan', order: 'asc' })).list),
    );
    await sortBy(table(page), 'JAN');
    await expectRows(
      table(page),
      ids((await listItems(request, token, { group, limit: 50, sort: 'jan', order: 'desc' })).list),
    );
    await choosePageSize(page, table(page), 20);
    await gotoPage(table(page), 2);
    await expectRows(
      table(page),
      ids((await listItems(request, token, { group, offset: 20, limit: 20, sort: 'jan', order: 'desc' })).list),
    );

    // Status: back to page 1, the sort kept.
    await choose(page, page.getByTestId('list-status'), '审核未通过');
    await search(page);
    await expect(wrapperOf(table(page)).locator('.ant-pagination-item-active')).toHaveText('1');
    const failed = await listItems(request, token, { group, status: 'failed', sort: 'jan', order: 'desc' });
    expect(failed.total).toBe(3);
    await expectRows(table(page), ids(failed.list));

    // JAN, any name (Chinese, English) and dates.
    await page.getByTestId('list-reset').click();
    await page.getByTestId('list-jan').fill(made[5]!.jan);
    await search(page);
    await expectRows(table(page), [made[5]!.id]);
    await page.getByTestId('list-reset').click();
    await page.getByTestId('list-name').fill('独特名称');
    await search(page);
    const byName = await listItems(request, token, { name: '独特名称' });
    expect(ids(byName.list)).toContain(made[7]!.id);
    await expectRows(table(page), ids(byName.list));
    await page.getByTestId('list-reset').click();
    const day = (d: number) => new Date(Date.now() + 8 * 3600_000 - d * 86_400_000).toISOString().slice(0, 10);
    await page.getByTestId('list-group').fill(group);
    await page.locator('.ant-picker-range input').first().click();
    await page.keyboard.type(day(1));
    await page.keyboard.press('Enter');
    await page.keyboard.type(day(0));
    await page.keyboard.press('Enter');
    await search(page);
    const dated = await listItems(request, token, { group, dateFrom: day(1), dateTo: day(0) });
    expect(dated.total).toBe(45);
    await expectRows(table(page), ids(dated.list));
    const future = await listItems(request, token, { group, dateFrom: day(-2), dateTo: day(-1) });
    expect(future.total).toBe(0);

    // Brand, category (its subtree) and part: the nine of every fifth.
    for (const [id, pick, body] of [
      ['list-brand', '明治', { brandId: 3 }],
      ['list-part', null, { partId: parts[0]!.id }],
    ] as const) {
      await page.getByTestId('list-reset').click();
      await page.getByTestId('list-group').fill(group);
      if (pick) await choose(page, page.getByTestId(id), pick);
      else {
        await page.getByTestId(id).click();
        await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
      }
      await search(page);
      const expected = await listItems(request, token, { group, ...body });
      expect(expected.total, JSON.stringify(body)).toBe(9);
      await expectRows(table(page), ids(expected.list));
    }
    await page.getByTestId('list-reset').click();
    await page.getByTestId('list-group').fill(group);
    await page.getByTestId('list-category').click();
    await page.keyboard.type('食品');
    await page
      .locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper')
      .filter({ hasText: /^食品$/ })
      .click();
    await search(page);
    const byCategory = await listItems(request, token, { group, categoryId: 5 });
    expect(byCategory.total).toBe(9);
    await expectRows(table(page), ids(byCategory.list));

    // The JAN is a link to the item's info.
    const link = page.getByTestId(`item-${made[0]!.jan}`);
    await page.getByTestId('list-reset').click();
    await page.getByTestId('list-jan').fill(made[0]!.jan);
    await search(page);
    await expect(link).toHaveAttribute('href', `/home/item/info?id=${made[0]!.id}`);
    await link.click();
    await expect(page.getByTestId('item-info')).toContainText(made[0]!.jan);
    expect(errors).toEqual([]);
  });

  test('the search panel hotkeys open the item list and the failed list', async ({ page, context, request }) => {
    await loginByCookie(context, request, 'demo');
    await page.goto(`${MAIN}/home/index`);
    await expect(page.getByTestId('home')).toBeVisible();
    // A hotkey opens a list as it was left (issue 40 item 4): an earlier test's filters on demo's
    // item list may come back with the tabs the server keeps, so the path is what is asserted.
    await page.keyboard.press('Alt+2');
    await expect(page).toHaveURL(/\/home\/item\/noPassItem(\?|$)/);
    await expect(
      page
        .locator('[data-tab-view="/item/noPassItem"], [data-tab-view^="/item/noPassItem?"]')
        .getByTestId('item-table'),
    ).toBeVisible();
    await page.keyboard.press('Alt+1');
    await expect(page).toHaveURL(/\/home\/item\/list(\?|$)/);
    await expect(
      page.locator('[data-tab-view="/item/list"], [data-tab-view^="/item/list?"]').getByTestId('item-table'),
    ).toBeVisible();
  });

  test('the chosen columns are saved for the user and survive a reload', async ({ page, context, request }) => {
    await loginByCookie(context, request, 'agent');
    await page.goto(`${MAIN}/home/item/list`);
    const header = table(page).locator('thead');
    await expect(header).toContainText('英文名称');
    await page.getByTestId('list-columns').click();
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/user/settings/save'));
    await page.getByTestId('list-column-choice').getByText('英文名称').click();
    expect((await saved).status()).toBe(200);
    await expect(header).not.toContainText('英文名称');
    await page.reload();
    await expect(table(page).locator('thead')).toContainText('JAN');
    await expect(table(page).locator('thead')).not.toContainText('英文名称');
    // And back, so other specs see every column.
    await page.getByTestId('list-columns').click();
    await page.getByTestId('list-column-choice').getByText('英文名称').click();
    await expect(table(page).locator('thead')).toContainText('英文名称');
  });
});
