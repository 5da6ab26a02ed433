/**
 * Lane meituan as users click it: a customer declares a self-send and sees it arrive after an
 * inbound storage of its tracking number; adds a recipient to the address book and uses it on a
 * single order; downloads the Meituan template, fills and uploads it; an operator completes one of
 * its orders, exports the list and opens the order's detail and items.
 */
import { readFile } from 'node:fs/promises';
import { expect as baseExpect, test } from '../support/test.ts';
import ExcelJS from 'exceljs';
import { MAIN } from '../servers.ts';
import { aesApi } from '../support/aes.ts';
import { idCard, unique } from '../support/orders.ts';
import { apiLogin, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

test('self-send: declared, then arrived once storage scans its tracking number', async ({ browser, request }) => {
  const context = await browser.newContext();
  await loginByCookie(context, request, 'demo');
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  const tracking = unique('YMT')
    .replace(/[^A-Z0-9]/gi, '')
    .toUpperCase();
  await page.goto(`${MAIN}/home/selfSendTake/create`);
  await page.getByTestId('self-send-tracking').fill(`${tracking}A\n${tracking}B`);
  await page.getByTestId('self-send-pieces').fill('2');
  await page.getByTestId('self-send-save').click();
  await expect(page.getByTestId('self-send-saved')).toBeVisible();

  // The warehouse stores one of the two parcels.
  const operator = await apiLogin(request, 'operator');
  const stored = await aesApi(
    request,
    'storageOrder/create',
    { origin: 'selfSend', waybillNos: [`${tracking}A`] },
    operator,
  );
  expect(stored.status).toBe(200);

  await page.goto(`${MAIN}/home/selfSendTake/list`);
  await page.getByTestId('self-send-filter-tracking').fill(`${tracking}A`);
  await page.getByTestId('self-send-search').click();
  const table = page.getByTestId('self-send-table');
  await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(1);
  await expect(table.getByTestId('self-send-arrived')).toHaveText('1 / 2');
  expect(errors).toEqual([]);
  await context.close();
});

test('recipient: added to the address book, then picked on a single order', async ({ browser, request }) => {
  const context = await browser.newContext();
  await loginByCookie(context, request, 'demo');
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  const name = `收件${Math.floor(Math.random() * 1e6)}`;
  const id = idCard();
  await page.goto(`${MAIN}/home/recipient/list`);
  await page.getByTestId('recipient-create').click();
  const values: Record<string, string> = {
    name,
    idCard: id,
    phone: '13912340000',
    province: '浙江省',
    city: '杭州市',
    district: '西湖区',
    address: '文三路8号',
  };
  // A wrong check digit first: the server's message lands on the field.
  for (const [k, v] of Object.entries(values)) await page.getByTestId(`recipient-${k}`).fill(v);
  await page.getByTestId('recipient-idCard').fill(`${id.slice(0, 17)}${id.endsWith('1') ? '2' : '1'}`);
  await page.getByTestId('recipient-save').click();
  await expect(page.getByTestId('recipient-form')).toContainText('校验位');
  await page.getByTestId('recipient-idCard').fill(id);
  await page.getByTestId('recipient-save').click();
  await expect(page.getByTestId('recipient-table')).toContainText(name);

  await page.goto(`${MAIN}/home/order/create`);
  const pick = page.getByTestId('create-recipient-pick');
  await pick.click();
  await pick.locator('input').fill(name);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: name }).click();
  await expect(page.getByTestId('r-name')).toHaveValue(name);
  await expect(page.getByTestId('r-idCard')).toHaveValue(id);
  await expect(page.getByTestId('r-address')).toHaveValue('文三路8号');
  const orderNo = unique('MTR');
  await page.getByTestId('create-orderNo').fill(orderNo);
  await page.getByTestId('item-name-0').fill('洗面奶');
  await page.getByTestId('item-price-0').fill('1200');
  await page.getByTestId('create-submit').click();
  await expect(page.locator('.ant-notification')).toContainText(`订单已创建：${orderNo}`);
  expect(errors).toEqual([]);
  await context.close();
});

test('meituan: the template filled and uploaded, an operator completes one order, its detail, the list exports', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const sys = unique('E2EMT');
  const header = [
    '系统单号',
    '美团单号',
    '申通单号',
    '订单ID',
    '商品条码(JAN)',
    '商品名称',
    '规格',
    '单价(元)',
    '数量',
    '收件人',
    '收件地址',
    '收件电话',
  ];
  const customer = await browser.newContext({ acceptDownloads: true });
  await loginByCookie(customer, request, 'demo');
  const page = await customer.newPage();
  const errors = watchPageErrors(page);
  await page.goto(`${MAIN}/home/meituanOrder/create`);

  // The template the page offers (meituan_reservation_order/templateExcel): the sheet's columns in
  // the caller's language and nothing else; filled as a customer fills it, it is what gets uploaded.
  const [template] = await Promise.all([page.waitForEvent('download'), page.getByTestId('meituan-template').click()]);
  expect(template.suggestedFilename()).toBe('美团预约单模板.xlsx');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await readFile((await template.path())!)) as never);
  const ws = wb.worksheets[0]!;
  expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual(header);
  expect(ws.actualRowCount).toBe(1);
  ws.addRow([
    `${sys}-1`,
    `MT${sys}1`,
    '778000000001',
    `OID${sys}1`,
    '4901234567894',
    '抹茶饼干',
    '12枚',
    '35.50',
    2,
    '李雷',
    '上海市浦东新区世纪大道100号',
    '13900001111',
  ]);
  ws.addRow([
    `${sys}-2`,
    `MT${sys}2`,
    '778000000002',
    `OID${sys}2`,
    '4901234567894',
    '绿茶',
    '',
    '10',
    1,
    '韩梅梅',
    '上海市浦东新区世纪大道200号',
    '13900002222',
  ]);
  await page
    .getByTestId('meituan-file')
    .locator('input[type=file]')
    .setInputFiles({
      name: 'meituan.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await wb.xlsx.writeBuffer()),
    });
  await page.getByTestId('meituan-upload').click();
  await expect(page.getByTestId('meituan-done')).toContainText('2');
  expect(errors).toEqual([]);
  await customer.close();

  const ops = await browser.newContext({ acceptDownloads: true });
  await loginByCookie(ops, request, 'operator');
  const op = await ops.newPage();
  const opErrors = watchPageErrors(op);
  await op.goto(`${MAIN}/home/meituanOrder/list`);
  await op.getByTestId('meituan-filter-number').fill(`${sys}-1`);
  await op.getByTestId('meituan-search').click();
  // The search's answer is on screen (the row without its sibling): what the export below takes.
  // The row alone was on screen before the search too, and the export once ran on the old query.
  await expect(op.getByTestId('meituan-table').locator('tbody tr.ant-table-row')).toHaveCount(1);
  const row = op.getByTestId('meituan-table').locator(`tr[data-system-no="${sys}-1"]`);
  await expect(row.getByTestId('meituan-status')).toHaveText('待操作');
  await row.getByTestId('meituan-complete-one').click();
  await expect(row.getByTestId('meituan-status')).toHaveText('已完成');
  const [download] = await Promise.all([op.waitForEvent('download'), op.getByTestId('meituan-export').click()]);
  const out = new ExcelJS.Workbook();
  await out.xlsx.load((await readFile((await download.path())!)) as never);
  const cells: unknown[][] = [];
  out.worksheets[0]!.eachRow((r) => cells.push((r.values as unknown[]).slice(1)));
  expect(cells).toHaveLength(2);
  expect(cells[1]!.slice(0, 1)).toEqual([`${sys}-1`]);
  expect(cells[1]![12]).toBe('已完成');

  // Its detail (meituan_reservation_order and …/items): what the sheet's row stored, the phone
  // whole (the list masks it), the completion, and its one item line.
  await row.getByText(`${sys}-1`, { exact: true }).click();
  await expect(op).toHaveURL(/\/meituanOrder\/info\?id=\d+/);
  const info = op.getByTestId('meituan-info');
  await expect(info).toContainText(`MT${sys}1`);
  await expect(info).toContainText(`OID${sys}1`);
  await expect(info).toContainText('13900001111');
  await expect(info).toContainText('上海市浦东新区世纪大道100号');
  await expect(info).toContainText('已完成');
  const items = op.getByTestId('meituan-items').locator('tbody tr.ant-table-row');
  await expect(items).toHaveCount(1);
  await expect(items.locator('td')).toHaveText(['4901234567894', '抹茶饼干', '12枚', '35.50', '2']);
  expect(opErrors).toEqual([]);
  await ops.close();
});
