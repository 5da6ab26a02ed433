/**
 * Batch sender (issue 11 #15): one saved sender on pasted order numbers, and a sender per order
 * from a sheet; the preview lists old and new sender and the refused (received) order; the apply
 * changes the others and not the refused one.
 */
import ExcelJS from 'exceljs';
import { expect, test, type APIRequestContext } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { createOrder } from '../support/orders.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';

type Detail = { sender: { name: string | null; address: string | null; phone: string | null } };
const senderOf = async (request: APIRequestContext, token: string, id: number) =>
  (await api<Detail>(request, 'order/order', { id }, token)).body.data.sender;

async function received(request: APIRequestContext, token: string) {
  const o = await createOrder(request, token);
  const operator = await apiLogin(request, 'operator');
  const scan = await api<{ outcome: string }>(request, 'order/orderScan', { code: o.waybillNo }, operator);
  expect(scan.body.data.outcome).toBe('received');
  return o;
}

test('one sender for pasted orders: preview, refusal by status, apply', async ({ page, context, request }) => {
  const token = await loginByCookie(context, request, 'demo');
  const [a, b] = [await createOrder(request, token), await createOrder(request, token)];
  const r = await received(request, token);

  await page.goto(`${MAIN}/home/order/batchSender`);
  const root = page.getByTestId('batch-sender');
  // The customer's saved sender is filled in (its last order's sender).
  await expect(root.getByTestId('s-name')).not.toHaveValue('');
  await root.getByTestId('sender-order-nos').fill([a.orderNo, b.orderNo, r.orderNo].join('\n'));
  await root.getByTestId('s-name').fill('新发件人株式会社');
  await root.getByTestId('sender-preview').click();

  const preview = page.getByTestId('change-preview');
  await expect(preview.getByTestId('change-summary')).toContainText('2 个订单将被修改，0 个无变化，1 个不会修改');
  const rowA = preview.locator(`tr[data-order="${a.orderNo}"]`);
  await expect(rowA.locator('[data-field="senderName"]')).toContainText('DEMO Trading');
  await expect(rowA.locator('[data-field="senderName"]')).toContainText('新发件人株式会社');
  await expect(preview.locator(`tr[data-order="${r.orderNo}"]`)).toContainText('已入库收货');
  // Nothing changed yet.
  expect((await senderOf(request, token, a.id)).name).toBe('DEMO Trading');

  await preview.getByTestId('change-apply').click();
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: /继\s?续/ })
    .click();
  await expect(page.locator('.ant-message')).toContainText('已修改 2 个订单');
  await expect(page.getByTestId('change-preview')).toHaveCount(0);
  expect((await senderOf(request, token, a.id)).name).toBe('新发件人株式会社');
  expect((await senderOf(request, token, b.id)).name).toBe('新发件人株式会社');
  expect((await senderOf(request, token, r.id)).name).toBe('DEMO Trading');
});

test('a sender per order from the sheet, with the template and the refused rows', async ({
  page,
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'demo');
  const a = await createOrder(request, token);
  const r = await received(request, token);

  await page.goto(`${MAIN}/home/order/batchSender`);
  const root = page.getByTestId('batch-sender');
  await root.getByRole('tab', { name: '按表格导入' }).click();
  const download = page.waitForEvent('download');
  await root.getByTestId('change-template').click();
  const template = await download;
  expect(template.suggestedFilename()).toBe('批量修改发件人模板.xlsx');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(await template.path());
  const ws = wb.worksheets[0]!;
  expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual(['订单号', '发件人', '发件地址', '发件电话']);
  ws.addRow([a.orderNo, '表格发件人', '东京都港区1-2-3', '03-5555-6666']);
  ws.addRow([r.orderNo, '表格发件人', null, null]);
  const file = Buffer.from(await wb.xlsx.writeBuffer());

  await root.locator('input[type=file]').setInputFiles({
    name: 'senders.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: file,
  });
  const preview = page.getByTestId('change-preview');
  await expect(preview.getByTestId('change-summary')).toContainText('1 个订单将被修改，0 个无变化，1 个不会修改');
  await expect(preview.locator(`tr[data-order="${a.orderNo}"] [data-field="senderPhone"]`)).toContainText(
    '03-5555-6666',
  );
  const refusedDownload = page.waitForEvent('download');
  await preview.getByTestId('change-refused').click();
  const refused = new ExcelJS.Workbook();
  await refused.xlsx.readFile(await (await refusedDownload).path());
  expect(String(refused.worksheets[0]!.getRow(2).getCell(1).value)).toBe(r.orderNo);

  await preview.getByTestId('change-apply').click();
  // A click while the confirmation still zooms in was lost once in CI (no call left): click until
  // the confirmation closes; one that took closes it, so the change is sent once.
  const confirm = page.locator('.ant-modal-confirm');
  await expect(async () => {
    await confirm.getByRole('button', { name: /继\s?续/ }).click({ timeout: 2000 });
    await expect(confirm).toBeHidden({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.locator('.ant-message')).toContainText('已修改 1 个订单');
  expect(await senderOf(request, token, a.id)).toEqual({
    name: '表格发件人',
    address: '东京都港区1-2-3',
    phone: '03-5555-6666',
  });
  expect((await senderOf(request, token, r.id)).name).toBe('DEMO Trading');
});
