/**
 * Inbound storage and outbound as an operator clicks them (issue 13): waybills typed one per
 * line (Enter each), an unknown one among them, each line's result and the running count; the
 * storage order found in the list by its number, its info and its orders; the received orders
 * shipped in out batch and the manifest downloaded; out single refusing an order not received.
 */
import { readFile } from 'node:fs/promises';
import { expect as baseExpect, test } from '../support/test.ts';
import ExcelJS from 'exceljs';
import { MAIN } from '../servers.ts';
import { createOrder } from '../support/orders.ts';
import { apiLogin, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

test('storage: operator enters waybills → list → info/orders → out batch with manifest; out single refuses', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const demo = await apiLogin(request, 'demo');
  const orders = await Promise.all([0, 1, 2].map(() => createOrder(request, demo)));
  const notReceived = await createOrder(request, demo);
  const waybills = orders.map((o) => o.waybillNo!);
  expect(waybills.every(Boolean)).toBe(true);

  const context = await browser.newContext();
  await loginByCookie(context, request, 'operator');
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const errors = watchPageErrors(page);

  // Entry: one waybill a line, Enter each; an unknown one in the middle.
  await page.goto(`${MAIN}/home/storageOrder/create`);
  const input = page.getByTestId('storage-input');
  for (const w of [waybills[0]!, waybills[1]!, 'NOSUCHE2E0001', waybills[2]!]) {
    await input.fill(w);
    await input.press('Enter');
  }
  const results = page.getByTestId('storage-results');
  await expect(results.locator('.ant-list-item')).toHaveCount(4);
  for (const w of waybills)
    await expect(results.locator(`[data-code="${w}"]`)).toHaveAttribute('data-outcome', 'received');
  await expect(results.locator('[data-code="NOSUCHE2E0001"]')).toHaveAttribute('data-outcome', 'notFound');
  await expect(page.getByTestId('storage-count')).toHaveText(/3\D+1/);
  const storageNo = (await page.getByTestId('storage-created-no').textContent())!.trim();
  expect(storageNo).toMatch(/^SO\d+/);

  // The list, filtered by the number; its info and its orders.
  await page.goto(`${MAIN}/home/storageOrder/list`);
  await page.getByTestId('storage-filter-no').fill(storageNo);
  await page.getByTestId('storage-search').click();
  const table = page.getByTestId('storage-table');
  await expect(table.locator('tbody tr[data-storage-no]')).toHaveCount(1);
  await table.locator(`tr[data-storage-no="${storageNo}"]`).getByText(storageNo).click();
  await expect(page).toHaveURL(/\/storageOrder\/info\?id=\d+/);
  await expect(page.getByTestId('storage-received')).toHaveText('3');
  await expect(page.getByTestId('storage-lines').locator('tr[data-code="NOSUCHE2E0001"]')).toBeVisible();
  await page.getByTestId('storage-open-orders').click();
  await expect(page).toHaveURL(/\/storageOrder\/item\?id=\d+/);
  // The info page stays open in its tab: the orders page's own table.
  const lines = page.getByTestId('storage-item-page').getByTestId('storage-lines');
  await expect(lines.locator('tbody tr[data-code]')).toHaveCount(4);
  await expect(lines.locator(`tr[data-code="${waybills[0]}"]`)).toHaveAttribute('data-outcome', 'received');

  // Out batch: one selected in the table, two pasted; confirmed; the manifest.
  await page.goto(`${MAIN}/home/storageOrder/outBatch`);
  const find = page.getByTestId('out-batch-find').locator('xpath=descendant-or-self::input');
  await find.fill(waybills[0]!);
  await find.press('Enter');
  // The search's answer, one row: the row is on screen before it too, and a tick on the
  // last answer's rows is cleared when the new one comes (the selection rule).
  const shippableRows = page.getByTestId('out-batch-orders').locator('tbody tr[data-waybill]');
  await expect(shippableRows).toHaveCount(1);
  const row = shippableRows.and(page.locator(`[data-waybill="${waybills[0]}"]`));
  await row.locator('input[type=checkbox]').check();
  await expect(page.getByTestId('selection-count')).toContainText('1');
  await page.getByTestId('out-batch-paste').fill(`${waybills[1]}\n${waybills[2]}`);
  await page.getByTestId('out-batch-ship').click();
  await page.locator('.ant-popconfirm .ant-btn-primary').click();
  const result = page.getByTestId('out-batch-result');
  await expect(result.locator('.ant-list-item[data-outcome="shipped"]')).toHaveCount(3);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('out-batch-manifest').click()]);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await readFile((await download.path())!)) as never);
  const sheet = wb.worksheets[0]!;
  const inSheet: string[] = [];
  sheet.eachRow((r, n) => n > 1 && inSheet.push(String(r.getCell(1).value)));
  expect(inSheet.sort()).toEqual([...waybills].sort());
  expect(String(sheet.getRow(2).getCell(4).value)).toBe('杭州市');

  // Out single: an order not received is refused with the order's reason.
  await page.goto(`${MAIN}/home/storageOrder/outSingle`);
  await page.getByTestId('out-single-input').fill(notReceived.waybillNo!);
  await page.getByTestId('out-single-input').press('Enter');
  await expect(page.getByTestId('out-single-last')).toHaveAttribute('data-outcome', 'refused');
  await expect(page.getByTestId('out-single-last')).toContainText(notReceived.orderNo);
  // Outbound, a refusal reads "cannot ship", not the inbound "cannot store" (issue 28, item 11).
  const refusedLine = page.getByTestId('out-single-results').locator(`[data-code="${notReceived.waybillNo}"]`);
  await expect(refusedLine.getByTestId('line-outcome')).toHaveText('不能出库');
  expect(errors).toEqual([]);
  await context.close();
});
