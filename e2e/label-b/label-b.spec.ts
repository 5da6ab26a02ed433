/**
 * Modify Address (issue 15, label B) as a customer clicks it: the page's template downloaded and
 * filled with four address changes, uploaded, the dry run's table with one refusal (another
 * customer's order: not found) and the label-B warning on the printed one, confirmed and followed
 * to the end; the new address on the order's page, the "B" on the batch's page and in the batch's
 * exported workbook.
 */
import { readFile } from 'node:fs/promises';
import { expect as baseExpect, test } from '../support/test.ts';
import ExcelJS from 'exceljs';
import { MAIN } from '../servers.ts';
import { createOrder } from '../support/orders.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

test('label B: upload three address changes → dry run with one refusal → confirm → new address and label B', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const demo = await apiLogin(request, 'demo');
  const demo2 = await apiLogin(request, 'demo2');
  const [a, b, c] = await Promise.all([0, 1, 2].map(() => createOrder(request, demo)));
  const theirs = await createOrder(request, demo2);
  // b's label is printed: changing its address calls for a replacement label B.
  const printed = await request.post(`${MAIN}/api/order/download/labelA`, {
    data: { ids: [b!.id] },
    headers: { Authorization: `Bearer ${demo}` },
  });
  expect(printed.status()).toBe(200);

  const context = await browser.newContext({ acceptDownloads: true });
  await loginByCookie(context, request, 'demo');
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const errors = watchPageErrors(page);

  await page.goto(`${MAIN}/home/order/updateLabelB`);
  await expect(page.getByTestId('labelb-table')).toBeVisible();
  await page.getByTestId('labelb-create').click();
  await expect(page).toHaveURL(/\/order\/updateLabelB\/create/);
  // The page's template (updateLableB/downloadXlsx): its header only, in the caller's language;
  // filled as a customer fills it, it is the file uploaded.
  const [template] = await Promise.all([page.waitForEvent('download'), page.getByTestId('labelb-template').click()]);
  expect(template.suggestedFilename()).toBe('修改地址模板.xlsx');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await readFile((await template.path())!)) as never);
  const ws = wb.worksheets[0]!;
  expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual([
    '订单号',
    '收件人',
    '电话',
    '省',
    '市',
    '区',
    '详细地址',
  ]);
  expect(ws.actualRowCount).toBe(1);
  for (const o of [a!, b!, c!, theirs])
    ws.addRow([o.orderNo, '李新', '13900001111', '广东省', '深圳市', '南山区', '科技园路8号']);
  await page.locator('input[type=file]').setInputFiles({
    name: 'addresses.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: Buffer.from(await wb.xlsx.writeBuffer()),
  });
  await page.getByTestId('labelb-check').click();

  const rows = page.getByTestId('labelb-rows');
  await expect(rows.locator('tbody tr[data-outcome="ok"]')).toHaveCount(3);
  await expect(rows.locator('tbody tr[data-outcome="refused"]')).toHaveCount(1);
  await expect(rows.locator(`tr[data-order-no="${theirs.orderNo}"]`)).toContainText('不存在');
  await expect(rows.locator(`tr[data-order-no="${b!.orderNo}"]`)).toContainText('B 面单');
  await expect(rows.locator(`tr[data-order-no="${a!.orderNo}"]`)).toContainText('浙江省杭州市西湖区文三路100号');
  // Nothing changed yet.
  const before = await api<{ recipient: { address: string } }>(request, 'order/order', { id: a!.id }, demo);
  expect(before.body.data.recipient.address).toBe('文三路100号');

  await page.getByTestId('labelb-confirm').click();
  await expect(page.getByTestId('labelb-done')).toContainText('3 个订单已修改，1 个需要重新打印 B 面单');

  // The new address on the order's page.
  await page.goto(`${MAIN}/home/order/info?id=${a!.id}`);
  const detail = page.getByTestId('order-detail');
  await expect(detail).toContainText('科技园路8号');
  await expect(detail).toContainText('李新');

  // The batch in the list, done; its page marks b for label B.
  await page.goto(`${MAIN}/home/order/updateLabelB`);
  const table = page.getByTestId('labelb-table');
  const first = table.locator('tbody tr[data-batch-no]').first();
  await expect(first).toContainText('已完成');
  await first.locator('a').first().click();
  await expect(page).toHaveURL(/\/order\/updateLabelB\/info\?id=\d+/);
  const info = page.getByTestId('labelb-rows').last();
  await expect(info.locator(`tr[data-order-no="${b!.orderNo}"]`)).toHaveAttribute('data-outcome', 'changed');
  await expect(info.locator(`tr[data-order-no="${b!.orderNo}"] .ant-tag`, { hasText: /^B$/ })).toBeVisible();
  await expect(info.locator(`tr[data-order-no="${a!.orderNo}"] .ant-tag`, { hasText: /^B$/ })).toHaveCount(0);

  // The batch exported (updateLableB/export): one row per uploaded line with the old address, the
  // new one, the outcome, the refusal and the label-B mark, as stored.
  const [exported] = await Promise.all([page.waitForEvent('download'), page.getByTestId('labelb-export').click()]);
  const out = new ExcelJS.Workbook();
  await out.xlsx.load((await readFile((await exported.path())!)) as never);
  const sheet = out.worksheets[0]!;
  const cells = (n: number) => Array.from({ length: 11 }, (_, i) => sheet.getRow(n).getCell(i + 1).text);
  expect(cells(1)).toEqual([
    '订单号',
    '原地址',
    '收件人',
    '电话',
    '省',
    '市',
    '区',
    '详细地址',
    '结果',
    '原因 / 提示',
    'B 面单',
  ]);
  expect(sheet.actualRowCount).toBe(5);
  const byOrder = new Map(Array.from({ length: 4 }, (_, i) => cells(i + 2)).map((r) => [r[0], r]));
  const newAddress = ['李新', '13900001111', '广东省', '深圳市', '南山区', '科技园路8号'];
  expect(byOrder.get(a!.orderNo)!.slice(2, 9)).toEqual([...newAddress, '已修改']);
  expect(byOrder.get(a!.orderNo)![1]).toContain('浙江省杭州市西湖区文三路100号');
  expect(byOrder.get(a!.orderNo)![10]).toBe('');
  expect(byOrder.get(b!.orderNo)!.slice(8, 9)).toEqual(['已修改']);
  expect(byOrder.get(b!.orderNo)![10]).toBe('是');
  expect(byOrder.get(c!.orderNo)![8]).toBe('已修改');
  expect(byOrder.get(theirs.orderNo)![8]).toBe('已拒绝');
  expect(byOrder.get(theirs.orderNo)![9]).toContain('不存在');
  expect(errors).toEqual([]);
  await context.close();
});
