/**
 * Order Search and Batch Orders Search, paging (issue 11 leftover of finding 1): both pages
 * paged in the browser over everything the server answered; now the server pages them. The
 * pager reaches other rows, the size changer changes the page, each exactly as the API answers,
 * and the numbers not found are all listed whatever the page.
 */
import { expect as baseExpect, test, type APIRequestContext, type Page } from '../support/test.ts';
import ExcelJS from 'exceljs';
import { MAIN } from '../servers.ts';
import { listOrders, unique } from '../support/orders.ts';
import { api, loginByCookie } from '../support/session.ts';
import { choosePageSize, expectRows, gotoPage, rowKeys, wrapperOf } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

type Page_ = { total: number; list: { id: number; matched: string }[]; notFound?: string[] };
const table = (page: Page) => page.getByTestId('search-found');
const ids = (p: Page_) => p.list.map((r) => r.id);

/** 60 of demo's order numbers (newest first) and two numbers nobody has. */
async function numbers(request: APIRequestContext, token: string) {
  const first = await listOrders(request, token, { limit: 60 });
  expect(first.list.length).toBe(60);
  return { orderNos: first.list.map((r) => r.orderNo), missing: [unique('NOPE'), unique('NOPE')] };
}

test.describe('Order Search and Batch Orders Search controls', () => {
  test.describe.configure({ timeout: 240_000 });

  test('Order Search: the pager and the size changer show the API’s rows', async ({ page, context, request }) => {
    const token = await loginByCookie(context, request, 'demo');
    const { orderNos, missing } = await numbers(request, token);
    const all = [...orderNos, ...missing];
    const search = async (body: Record<string, unknown>) =>
      (await api<Page_>(request, 'order/search', { numbers: all, order: 'desc', ...body }, token)).body.data;

    await page.goto(`${MAIN}/home/order/search`);
    await page.getByTestId('search-numbers').fill(all.join('\n'));
    const asked = page.waitForRequest((r) => r.url().endsWith('/api/order/search'));
    await page.getByTestId('search-run').click();
    // The server is asked for one page, not for everything.
    expect((await asked).postDataJSON()).toMatchObject({ offset: 0, limit: 20 });
    const first = await search({ offset: 0, limit: 20 });
    expect(first.total).toBe(60);
    await expectRows(table(page), ids(first));
    await expect(page.getByTestId('search-not-found')).toContainText('未找到 (2)');

    const second = await search({ offset: 20, limit: 20 });
    expect(ids(second).some((id) => ids(first).includes(id))).toBe(false);
    const turn = page.waitForRequest((r) => r.url().endsWith('/api/order/search'));
    await gotoPage(table(page), 2);
    expect((await turn).postDataJSON()).toMatchObject({ offset: 20, limit: 20 });
    await expectRows(table(page), ids(second));
    // Not found stays whole on every page.
    await expect(page.getByTestId('search-not-found')).toContainText(missing[1]!);

    await choosePageSize(page, table(page), 50);
    await expectRows(table(page), ids(await search({ offset: 0, limit: 50 })));
    expect(await rowKeys(table(page))).toHaveLength(50);
    await gotoPage(table(page), 2);
    await expectRows(table(page), ids(await search({ offset: 50, limit: 50 })));
    expect(await rowKeys(table(page))).toHaveLength(10);

    // A new search starts again at page 1 and keeps the size.
    await page.getByTestId('search-numbers').fill(orderNos.slice(0, 12).join('\n'));
    await page.getByTestId('search-run').click();
    await expect(wrapperOf(table(page)).locator('.ant-pagination-item-active')).toHaveText('1');
    await expectRows(table(page), ids(await search({ numbers: orderNos.slice(0, 12), offset: 0, limit: 50 })));
    await expect(page.getByTestId('search-not-found')).toHaveCount(0);
  });

  test('Batch Orders Search: an uploaded list is paged by the server, size changer included', async ({
    page,
    context,
    request,
  }) => {
    const token = await loginByCookie(context, request, 'demo');
    const { orderNos, missing } = await numbers(request, token);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('numbers');
    ws.addRow(['订单号']);
    for (const n of [...orderNos, ...missing]) ws.addRow([n]);
    const file = Buffer.from(await wb.xlsx.writeBuffer());

    await page.goto(`${MAIN}/home/order/orderBatchSearch`);
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/order/orderBatchSearch'));
    await page.locator('input[type=file]').setInputFiles({
      name: 'numbers.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: file,
    });
    const answer = (await (await uploaded).json()) as { data: { searchId: number; total: number } };
    expect(answer.data.total).toBe(60);
    const found = async (body: Record<string, unknown>) =>
      (
        await api<Page_>(
          request,
          'order/orderBatchSearch/found',
          { searchId: answer.data.searchId, order: 'desc', ...body },
          token,
        )
      ).body.data;

    const first = await found({ offset: 0, limit: 20 });
    await expectRows(table(page), ids(first));
    await expect(page.getByTestId('search-not-found')).toContainText('未找到 (2)');
    const second = await found({ offset: 20, limit: 20 });
    expect(ids(second).some((id) => ids(first).includes(id))).toBe(false);
    await gotoPage(table(page), 2);
    await expectRows(table(page), ids(second));
    await wrapperOf(table(page)).locator('.ant-pagination-next').click();
    await expectRows(table(page), ids(await found({ offset: 40, limit: 20 })));

    await choosePageSize(page, table(page), 10);
    await expectRows(table(page), ids(await found({ offset: 0, limit: 10 })));
    await gotoPage(table(page), 4);
    await expectRows(table(page), ids(await found({ offset: 30, limit: 10 })));
    // Every row is one of the numbers uploaded.
    const shown = await found({ offset: 30, limit: 10 });
    expect(shown.list.length).toBe(10);
    expect(shown.list.every((r) => orderNos.includes(r.matched))).toBe(true);
  });
});
