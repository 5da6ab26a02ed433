/**
 * Issue 28 #21: spec §8's labels where a user meets them — copy buttons for order and waybill
 * numbers ('Copy failed' when the clipboard refuses), 'Form verification failed, please check'
 * beside the field messages, 'Failed to create order', 'Upload failed' — and (from item 17) the
 * waybill / order-number template offered by Batch Orders Search, whose column B is read.
 */
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { expect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { createOrder, idCard } from '../support/orders.ts';
import { loginByCookie } from '../support/session.ts';

// A first page can take long on a loaded machine (below): room for it.
test.describe.configure({ timeout: 120_000 });

const toast = (page: import('../support/test.ts').Page) => page.locator('.ant-message');

test('copy buttons put order and waybill numbers on the clipboard; a refusing clipboard says so', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: MAIN });
  const token = await loginByCookie(context, request, 'demo');
  const order = await createOrder(request, token);

  await page.goto(`${MAIN}/home/order/list`);
  // A test's first page: on a loaded machine (load average 30 to 56 on two cores) the shell took 13 to 40 s to show it.
  await expect(page.getByTestId(`copy-${order.orderNo}`)).toBeVisible({ timeout: 60_000 });
  await page.getByTestId(`copy-${order.orderNo}`).click();
  await expect(toast(page)).toContainText('已复制');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(order.orderNo);
  await page.getByTestId(`copy-${order.waybillNo}`).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(order.waybillNo);
  // The copy is all the click does: the list stays (the number is also the detail's link).
  await expect(page).toHaveURL(/\/home\/order\/list/);

  await page.getByTestId(`order-${order.orderNo}`).click();
  await page.getByTestId('order-detail').getByTestId(`copy-${order.waybillNo}`).click();
  await expect(toast(page)).toContainText('已复制');

  // A clipboard that refuses (the Clipboard API denied, the copy command not run).
  await page.evaluate(() => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')) },
    });
    document.execCommand = () => false;
  });
  await page.getByTestId('order-detail').getByTestId(`copy-${order.orderNo}`).click();
  await expect(toast(page)).toContainText('复制失败');
});

test("the create form says 'Form verification failed' and 'Failed to create order' beside the fields", async ({
  page,
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'demo');
  const taken = await createOrder(request, token);
  await page.goto(`${MAIN}/home/order/create`);
  // A test's first page: on a loaded machine (load average 30 to 56 on two cores) the shell took 13 to 40 s to show it.
  await expect(page.getByTestId('create-orderNo')).not.toHaveValue('', { timeout: 60_000 });

  // Nothing filled: the fields say what is missing, and the form says it failed.
  await page.getByTestId('create-submit').click();
  await expect(toast(page)).toContainText('表单校验失败，请检查');
  await expect(page.locator('.ant-form-item-explain-error').first()).toBeVisible();

  // The server refuses a number already used: the field says why, the toast that creating failed.
  await page.getByTestId('paste-address').fill('王小明 13912345678 广东省深圳市南山区科技园科苑路15号');
  await page.getByTestId('resolve-address').click();
  await expect(page.getByTestId('r-name')).toHaveValue('王小明');
  await page.getByTestId('r-idCard').fill(idCard());
  await page.getByTestId('create-orderNo').fill(taken.orderNo);
  await page.getByTestId('item-name-0').fill('洗面奶');
  await page.getByTestId('item-price-0').fill('1200');
  await page.getByTestId('create-submit').click();
  await expect(toast(page)).toContainText('创建订单失败：表单校验失败，请检查');
  await expect(page.locator('.ant-form-item-explain-error')).toContainText(taken.orderNo);
});

test("a page form's empty submit says 'Form verification failed' beside the field and sends nothing (item create)", async ({
  page,
  context,
  request,
}) => {
  await loginByCookie(context, request, 'demo');
  const creates: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/item/create')) creates.push(r.url());
  });
  await page.goto(`${MAIN}/home/item/create`);
  // A test's first page: on a loaded machine the shell took 13 to 40 s to show it.
  await expect(page.getByTestId('item-submit')).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('item-submit').click();
  await expect(toast(page)).toContainText('表单校验失败，请检查');
  await expect(page.getByTestId('item-create').locator('.ant-form-item-explain-error').first()).toBeVisible();
  // Still on the form, nothing asked of the server.
  await expect(page).toHaveURL(/\/home\/item\/create/);
  expect(creates).toEqual([]);
});

test("Batch Orders Search offers its template, reads both its columns, and says 'Upload failed'", async ({
  page,
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'demo');
  const [byNumber, byWaybill] = [await createOrder(request, token), await createOrder(request, token)];
  await page.goto(`${MAIN}/home/order/orderBatchSearch`);
  // A test's first page: on a loaded machine (load average 30 to 56 on two cores) the shell took 13 to 40 s to show it.
  await expect(page.getByTestId('batch-search-template')).toBeVisible({ timeout: 60_000 });

  const input = page.locator('input[type=file]');
  await input.setInputFiles({ name: 'numbers.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.from('hi') });
  await expect(toast(page)).toContainText('上传失败：');

  const download = page.waitForEvent('download');
  await page.getByTestId('batch-search-template').click();
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(readFileSync(await (await download).path()) as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0]!;
  expect(sheet.getRow(1).values).toEqual([undefined, '订单号 / Order No.', '运单号 / Waybill No.']);
  sheet.addRow([byNumber.orderNo, null]);
  sheet.addRow([null, byWaybill.waybillNo]);
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/order/orderBatchSearch'));
  await input.setInputFiles({
    name: 'numbers.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: Buffer.from(await wb.xlsx.writeBuffer()),
  });
  expect(((await (await answered).json()) as { data: { total: number } }).data.total).toBe(2);
  await expect(page.getByTestId(`order-${byNumber.orderNo}`)).toBeVisible();
  await expect(page.getByTestId(`order-${byWaybill.orderNo}`)).toBeVisible();
  await expect(page.getByTestId('search-not-found')).toHaveCount(0);
});
