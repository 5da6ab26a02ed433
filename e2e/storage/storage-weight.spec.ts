/**
 * The gross weight at the storage scan (issue 17) as an operator enters it: the weight typed (or
 * sent by a scale) beside the waybill, Enter in the waybill field stores both, clears both and
 * puts the cursor back in the waybill field; the paste mode's "waybill weight" lines; the weights
 * in the lines list and in the storage order's orders. The same from a workbook (waybill in column
 * A, weight in B): the counts, the refused row and its error workbook, the stored lines.
 */
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { createOrder } from '../support/orders.ts';
import { apiLogin, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

test('storage weight: scan with a weight, paste "waybill weight" lines, weights in the lines', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const demo = await apiLogin(request, 'demo');
  const [a, b, c] = await Promise.all([0, 1, 2].map(() => createOrder(request, demo)));
  const context = await browser.newContext();
  await loginByCookie(context, request, 'operator');
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const errors = watchPageErrors(page);

  await page.goto(`${MAIN}/home/storageOrder/create`);
  const waybill = page.getByTestId('storage-input');
  const weight = page.getByTestId('storage-weight').locator('xpath=descendant-or-self::input');
  // The scale sends the weight and Enter: the cursor moves to the waybill field.
  await weight.fill('1250');
  await weight.press('Enter');
  await expect(waybill).toBeFocused();
  await waybill.fill(a!.waybillNo!);
  await waybill.press('Enter');
  const results = page.getByTestId('storage-results');
  const lineA = results.locator(`[data-code="${a!.waybillNo}"]`);
  await expect(lineA).toHaveAttribute('data-outcome', 'received');
  await expect(lineA.getByTestId('line-weight')).toHaveText('1250 g');
  await expect(waybill).toHaveValue('');
  await expect(weight).toHaveValue('');
  await expect(waybill).toBeFocused();

  // A weight out of range is refused before anything is sent.
  await weight.fill('100001');
  await waybill.fill(b!.waybillNo!);
  await waybill.press('Enter');
  await expect(page.getByTestId('storage-error')).toBeVisible();
  await expect(results.locator('.ant-list-item')).toHaveCount(1);
  await weight.fill('');
  await waybill.fill('');

  // Paste mode: "waybill weight" per line, a line without a weight, a comma between.
  await page.getByTestId('storage-paste-mode').click();
  await page.getByTestId('storage-paste').fill(`${b!.waybillNo} 850\n${c!.waybillNo}\nNOSUCHW2E, 40`);
  await page.getByTestId('storage-paste-submit').click();
  await expect(results.locator('.ant-list-item')).toHaveCount(4);
  await expect(results.locator(`[data-code="${b!.waybillNo}"]`).getByTestId('line-weight')).toHaveText('850 g');
  await expect(results.locator(`[data-code="${c!.waybillNo}"]`)).toHaveAttribute('data-outcome', 'received');
  await expect(results.locator(`[data-code="${c!.waybillNo}"]`).getByTestId('line-weight')).toHaveCount(0);
  await expect(results.locator('[data-code="NOSUCHW2E"]').getByTestId('line-weight')).toHaveText('40 g');
  await expect(page.getByTestId('storage-count')).toHaveText(/3\D+1/);
  await expect(page.getByTestId('storage-paste')).toHaveValue('');

  // The storage order's orders show each line's weight.
  await page.getByTestId('storage-created-no').click();
  await expect(page).toHaveURL(/\/storageOrder\/info\?id=\d+/);
  await page.getByTestId('storage-open-orders').click();
  const lines = page.getByTestId('storage-item-page').getByTestId('storage-lines');
  await expect(lines.locator('tbody tr[data-code]')).toHaveCount(4);
  await expect(lines.locator(`tr[data-code="${a!.waybillNo}"]`)).toContainText('1250');
  await expect(lines.locator(`tr[data-code="${b!.waybillNo}"]`)).toContainText('850');
  expect(errors).toEqual([]);
  await context.close();
});

test('storage from a workbook: waybills and weights stored, the unknown one refused and in the error workbook', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const demo = await apiLogin(request, 'demo');
  const [a, b] = await Promise.all([0, 1].map(() => createOrder(request, demo)));
  const unknown = `NOSUCHX${Date.now()}`;
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('storage');
  ws.addRow(['运单号', '重量(g)']);
  ws.addRow([a!.waybillNo!, 1320]);
  ws.addRow([b!.waybillNo!]);
  ws.addRow([unknown, 75]);

  const context = await browser.newContext({ acceptDownloads: true });
  await loginByCookie(context, request, 'operator');
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const errors = watchPageErrors(page);
  await page.goto(`${MAIN}/home/storageOrder/create`);
  await page.getByTestId('storage-excel-tab').click();
  await page
    .getByTestId('storage-file')
    .locator('input[type=file]')
    .setInputFiles({
      name: 'storage.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await wb.xlsx.writeBuffer()),
    });
  // storageOrder/createBatch: two received, the unknown waybill refused with its row number.
  await page.getByTestId('storage-upload').click();
  const done = page.getByTestId('storage-excel-done');
  await expect(done).toContainText(/入库单 SO\d+：入库 2 票，失败 1 票/);
  await expect(done.locator('.ant-list-item')).toHaveCount(1);
  await expect(done.locator('.ant-list-item')).toContainText('#4');
  await expect(done.locator('.ant-list-item')).toContainText(unknown);

  // The error workbook names the refused row and only it.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('storage-errors').click()]);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await readFile((await download.path())!)) as never);
  const sheet = book.worksheets[0]!;
  const rows: string[][] = [];
  sheet.eachRow((r, n) => n > 1 && rows.push([r.getCell(1).text, r.getCell(3).text]));
  expect(rows).toEqual([[unknown, '4']]);

  // The stored storage order: its count and its lines with the workbook's weights.
  await done.locator('a').click();
  await expect(page).toHaveURL(/\/storageOrder\/info\?id=\d+/);
  await expect(page.getByTestId('storage-received')).toHaveText('2');
  await page.getByTestId('storage-open-orders').click();
  const lines = page.getByTestId('storage-item-page').getByTestId('storage-lines');
  await expect(lines.locator('tbody tr[data-code]')).toHaveCount(3);
  await expect(lines.locator(`tr[data-code="${a!.waybillNo}"]`)).toHaveAttribute('data-outcome', 'received');
  await expect(lines.locator(`tr[data-code="${a!.waybillNo}"]`)).toContainText('1320');
  await expect(lines.locator(`tr[data-code="${b!.waybillNo}"]`)).toHaveAttribute('data-outcome', 'received');
  await expect(lines.locator(`tr[data-code="${unknown}"]`)).toHaveAttribute('data-outcome', 'notFound');
  expect(errors).toEqual([]);
  await context.close();
});
