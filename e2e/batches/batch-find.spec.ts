/**
 * Issue 28 #17: calls served but used by no page, now behind the Batch List. `order/batch/search`
 * finds the batch holding an order's waybill number (the server's answer replaces the list until
 * the search is cleared), and `order/orders` lists a batch's orders in a drawer, paged there.
 */
import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

type Batch = { id: number; batchNo: string; status: string; orderCount: number };
type Order = { orderNo: string; waybillNo: string | null };

test('batch list: find a batch by a waybill number, then open its orders', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const token = await apiLogin(request, 'demo');
  const list = await api<{ total: number; list: Batch[] }>(request, 'order/batches', { limit: 100 }, token);
  // An older batch (not on the first page of the list) with orders that have waybills.
  let batch: Batch | undefined;
  let order: Order | undefined;
  for (const b of list.body.data.list.filter((x) => x.status === 'done' && x.orderCount > 0).reverse()) {
    const orders = await api<{ total: number; list: Order[] }>(
      request,
      'order/orders',
      { batchId: b.id, limit: 50 },
      token,
    );
    order = orders.body.data.list.find((o) => o.waybillNo);
    if (order) {
      batch = b;
      break;
    }
  }
  expect(batch, 'a seeded batch with waybills').toBeDefined();

  const context = await browser.newContext({ locale: 'zh-CN' });
  await loginByCookie(context, request, 'demo');
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  await page.goto(`${MAIN}/home/order/batchList`);
  const table = page.getByTestId('batch-table');
  await expect(table.locator('tbody tr.ant-table-row').first()).toBeVisible();

  const find = page.getByTestId('batch-find').locator('input');
  await find.fill(order!.waybillNo!);
  await find.press('Enter');
  await expect(page.getByTestId('batch-found-title')).toContainText(order!.waybillNo!);
  // Only the batch holding that waybill: the server found it.
  await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(1);
  await expect(table.locator('tbody tr.ant-table-row')).toContainText(batch!.batchNo);

  await table.getByTestId(`batch-view-orders-${batch!.batchNo}`).click();
  const drawer = page.getByTestId('batch-orders');
  await expect(drawer).toContainText(`批次 ${batch!.batchNo} 的订单`);
  const rows = drawer.getByTestId('batch-orders-table').locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(Math.min(batch!.orderCount, 20));
  await expect(drawer.locator(`tr[data-order-no="${order!.orderNo}"]`)).toContainText(order!.waybillNo!);
  await drawer.locator('.ant-drawer-close').click();

  // Cleared, the list is the filtered list again.
  await find.fill('');
  await find.press('Enter');
  await expect(page.getByTestId('batch-found-title')).toHaveCount(0);
  await expect.poll(() => table.locator('tbody tr.ant-table-row').count()).toBe(Math.min(list.body.data.total, 20));
  expect(errors).toEqual([]);
  await context.close();
});
