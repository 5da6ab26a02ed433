/**
 * Updates (issue 11 #15): chosen fields of many orders from a sheet; the preview shows old and
 * new values per field and a refused (cancelled) order; the refused rows download as a workbook;
 * the apply changes the others and not the refused one.
 */
import ExcelJS from 'exceljs';
import { expect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { createOrder } from '../support/orders.ts';
import { api, loginByCookie } from '../support/session.ts';
import { choosePageSize, gotoPage } from '../support/tables.ts';

type Detail = { remark: string | null; recipient: { name: string; postcode: string | null } };

test('change chosen fields from a sheet: preview old and new, refusals, apply', async ({ page, context, request }) => {
  const token = await loginByCookie(context, request, 'demo');
  const [a, b, gone] = [
    await createOrder(request, token),
    await createOrder(request, token),
    await createOrder(request, token),
  ];
  // A deleted order's number is refused as not found; a bad postcode as the order rules say.
  expect((await api(request, 'order/order/delete', { ids: [gone.id] }, token)).status).toBe(200);
  const detail = async (id: number) => (await api<Detail>(request, 'order/order', { id }, token)).body.data;

  await page.goto(`${MAIN}/home/order/updates`);
  const root = page.getByTestId('order-updates');
  const download = page.waitForEvent('download');
  await root.getByTestId('change-template').click();
  const template = await download;
  expect(template.suggestedFilename()).toBe('批量修改订单模板.xlsx');
  const head = new ExcelJS.Workbook();
  await head.xlsx.readFile(await template.path());
  const headers = (head.worksheets[0]!.getRow(1).values as unknown[]).slice(1);
  expect(headers[0]).toBe('订单号');
  expect(headers).toContain('收件人');
  expect(headers).toContain('备注');

  // Only the columns to change: order number, recipient, remark, postcode.
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('updates');
  ws.addRow(['订单号', '收件人', '备注', '邮编']);
  ws.addRow([a.orderNo, '李小龙', '放门口', null]);
  ws.addRow([b.orderNo, null, null, '12']);
  ws.addRow([gone.orderNo, '王五', null, null]);
  // More rows than a page: numbers no customer has, each refused as not found.
  const missing = Array.from({ length: 22 }, (_, i) => `NOPE-${a.orderNo}-${i + 1}`);
  for (const no of missing) ws.addRow([no, '某人', null, null]);
  await root.locator('input[type=file]').setInputFiles({
    name: 'updates.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: Buffer.from(await wb.xlsx.writeBuffer()),
  });

  const preview = page.getByTestId('change-preview');
  await expect(preview.getByTestId('change-summary')).toContainText('1 个订单将被修改，0 个无变化，24 个不会修改');
  // The preview pages: 20 rows, then the last 5; 50 a page shows all 25.
  const rows = preview.getByTestId('change-rows');
  const orderNos = () =>
    rows.locator('tbody tr.ant-table-row').evaluateAll((trs) => trs.map((t) => t.getAttribute('data-order')));
  await expect.poll(orderNos).toHaveLength(20);
  await gotoPage(rows, 2);
  await expect.poll(orderNos).toEqual(missing.slice(17));
  await choosePageSize(page, rows, 50);
  await expect.poll(orderNos).toHaveLength(25);
  const rowA = preview.locator(`tr[data-order="${a.orderNo}"]`);
  await expect(rowA.locator('[data-field="recipientName"]')).toContainText('张三丰');
  await expect(rowA.locator('[data-field="recipientName"]')).toContainText('李小龙');
  await expect(rowA.locator('[data-field="remark"]')).toContainText('放门口');
  await expect(preview.locator(`tr[data-order="${b.orderNo}"] [data-testid="change-refusal"]`)).toContainText('邮编');
  await expect(preview.locator(`tr[data-order="${gone.orderNo}"] [data-testid="change-refusal"]`)).toBeVisible();

  const refusedDownload = page.waitForEvent('download');
  await preview.getByTestId('change-refused').click();
  const refused = new ExcelJS.Workbook();
  await refused.xlsx.readFile(await (await refusedDownload).path());
  const rs = refused.worksheets[0]!;
  expect((rs.getRow(1).values as unknown[]).slice(1)).toEqual([
    '订单号',
    '收件人',
    '备注',
    '邮编',
    '未修改原因',
    '行号',
  ]);
  expect([rs.getRow(2).getCell(1).value, rs.getRow(3).getCell(1).value]).toEqual([b.orderNo, gone.orderNo]);
  expect(rs.getRow(25).getCell(1).value).toBe(missing[21]);
  expect(rs.getRow(25).getCell(6).value).toBe(26);

  await preview.getByTestId('change-apply').click();
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: /继\s?续/ })
    .click();
  await expect(page.locator('.ant-message')).toContainText('已修改 1 个订单');
  expect(await detail(a.id)).toMatchObject({ remark: '放门口', recipient: { name: '李小龙' } });
  expect((await detail(b.id)).recipient.postcode).toBeNull();
});
