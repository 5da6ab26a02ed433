/**
 * The order's life end to end (issue 13), as the people who do it click it: a customer
 * intercepts one of three orders; an operator stores the three by typing their waybills and sees
 * the intercepted one refused, ships the other two in out batch and downloads the manifest, and
 * uploads the clearance company's result with one release and one refusal; the customer sees the
 * error badge go up, fixes the refused order, sees the badge go down, and follows both parcels on
 * the public tracking page.
 */
import { readFile } from 'node:fs/promises';
import { expect as baseExpect, type APIRequestContext, test } from '../support/test.ts';
import ExcelJS from 'exceljs';
import { MAIN } from '../servers.ts';
import { idCard } from '../support/orders.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

type Created = { id: number; orderNo: string; waybillNo: string };
let n = 0;
async function hzOrder(request: APIRequestContext, token: string): Promise<Created> {
  n += 1;
  const r = await api<Created>(
    request,
    'order/createImport',
    {
      channel: 'JP',
      orderNo: `JRN${Date.now().toString(36).toUpperCase()}${n}`,
      clearanceCompany: 'HZ-CB',
      recipient: {
        name: '张三丰',
        idCard: idCard(),
        phone: '13812345678',
        province: '浙江省',
        city: '杭州市',
        district: '西湖区',
        address: '文三路100号',
      },
      sender: { name: 'DEMO Trading' },
      items: [{ name: '眼药水', quantity: 1, unitPrice: '1000' }],
    },
    token,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

async function resultSheet(rows: (string | null)[][]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('结果');
  ws.addRow(['运单号', '结果（放行 / 退单）', '原因代码', '备注']);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

test("an order's life: intercept, store, ship with a manifest, clearance refusal, fix, track", async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const token = await apiLogin(request, 'demo');
  const [released, refused, held] = [
    await hzOrder(request, token),
    await hzOrder(request, token),
    await hzOrder(request, token),
  ];

  const customerCtx = await browser.newContext();
  await loginByCookie(customerCtx, request, 'demo');
  const customer = await customerCtx.newPage();
  const customerErrors = watchPageErrors(customer);
  const operatorCtx = await browser.newContext();
  await loginByCookie(operatorCtx, request, 'operator');
  const operator = await operatorCtx.newPage();
  const operatorErrors = watchPageErrors(operator);

  // The customer intercepts one order by its waybill number.
  await customer.goto(`${MAIN}/home/order/interceptions`);
  await customer.getByTestId('interception-create').click();
  const form = customer.getByRole('dialog');
  await form.getByTestId('interception-numbers').fill(held.waybillNo);
  await form.getByTestId('interception-reason').fill('收件人要求暂缓发货');
  await form.getByTestId('interception-reason').press('Enter');
  await expect(form.getByTestId('interception-results')).toContainText('已拦截 1 个订单');
  await form.getByTestId('interception-submit').click();
  await expect(form).toBeHidden();

  // The operator types the three waybills: two stored, the intercepted one refused.
  await operator.goto(`${MAIN}/home/storageOrder/create`);
  const input = operator.getByTestId('storage-input');
  for (const o of [released, refused, held]) {
    await input.fill(o.waybillNo);
    await input.press('Enter');
  }
  const results = operator.getByTestId('storage-results');
  await expect(results.locator('.ant-list-item')).toHaveCount(3);
  await expect(results.locator(`[data-code="${released.waybillNo}"]`)).toHaveAttribute('data-outcome', 'received');
  await expect(results.locator(`[data-code="${refused.waybillNo}"]`)).toHaveAttribute('data-outcome', 'received');
  await expect(results.locator(`[data-code="${held.waybillNo}"]`)).toHaveAttribute('data-outcome', 'intercepted');

  // Ships the two in out batch and downloads the manifest.
  await operator.goto(`${MAIN}/home/storageOrder/outBatch`);
  await operator.getByTestId('out-batch-paste').fill(`${released.waybillNo}\n${refused.waybillNo}\n${held.waybillNo}`);
  await operator.getByTestId('out-batch-ship').click();
  await operator.locator('.ant-popconfirm .ant-btn-primary').click();
  const shipped = operator.getByTestId('out-batch-result');
  await expect(shipped.locator('.ant-list-item[data-outcome="shipped"]')).toHaveCount(2);
  await expect(shipped.locator('.ant-list-item[data-outcome="refused"]')).toHaveCount(1);
  const [download] = await Promise.all([
    operator.waitForEvent('download'),
    operator.getByTestId('out-batch-manifest').click(),
  ]);
  const manifest = new ExcelJS.Workbook();
  await manifest.xlsx.load((await readFile((await download.path())!)) as never);
  const inSheet: string[] = [];
  manifest.worksheets[0]!.eachRow((r, i) => i > 1 && inSheet.push(String(r.getCell(1).value)));
  expect(inSheet.sort()).toEqual([released.waybillNo, refused.waybillNo].sort());

  // The customer's error badge before the clearance result.
  await customer.goto(`${MAIN}/home/order/error`);
  const badge = customer.getByTestId('badge-error');
  // The badge shows 0 until its first call answers: take the count from the API, then wait for it.
  const before = (await api<{ total: number }>(request, 'order/error', { offset: 0, limit: 1, order: 'desc' }, token))
    .body.data.total;
  await expect(badge).toHaveAttribute('data-count', String(before));

  // Uploads the clearance result: one released, one refused for its address.
  await operator.goto(`${MAIN}/home/clearance/results`);
  await operator.getByTestId('clearance-company').click();
  await operator.locator('.ant-select-item-option', { hasText: 'HZ-CB' }).click();
  await operator.locator('input[type=file]').setInputFiles({
    name: 'results.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await resultSheet([
      [released.waybillNo, '放行', null, null],
      [refused.waybillNo, '退单', 'C03', '地址不详'],
    ]),
  });
  await expect(operator.getByTestId('clearance-outcome')).toContainText('放行 1 单，退单 1 单');

  // The customer sees the badge go up, fixes the address, and the badge goes down.
  await customer.reload();
  await expect(badge).toHaveAttribute('data-count', String(before + 1));
  const search = customer.getByTestId('error-search').locator('input');
  await search.fill(refused.orderNo);
  await search.press('Enter');
  const row = customer.getByTestId('error-table').locator('.ant-table-row', { hasText: refused.orderNo });
  await expect(row).toContainText('海关：收件人地址不完整或有误。');
  await customer.getByTestId(`fix-${refused.orderNo}`).click();
  const fix = customer.getByRole('dialog');
  await fix.getByTestId('r-address').fill('文三路100号3幢501室');
  await fix.getByTestId('fix-save').click();
  await expect(fix).toBeHidden();
  await expect(row).toHaveCount(0);
  await expect(badge).toHaveAttribute('data-count', String(before));

  // The public tracking page follows both parcels, with no office notes.
  const tracked = await customerCtx.newPage();
  await tracked.goto(`${MAIN}/home/tracking?no=${released.waybillNo},${refused.waybillNo}`);
  for (const [o, steps] of [
    [released, 4], // created, received, shipped, released
    [refused, 3], // created, received, shipped (the refusal and the fix are the office's)
  ] as const) {
    const card = tracked.getByTestId(`tracking-${o.waybillNo}`);
    await expect(card).toBeVisible();
    await expect(card.locator('.ant-timeline-item')).toHaveCount(steps);
    await expect(card).not.toContainText('地址不详');
  }
  const pub = await api<{ waybillNo: string; status: string }[]>(request, 'order/tracking', {
    waybillNos: [released.waybillNo, refused.waybillNo, held.waybillNo],
  });
  expect(pub.body.data.map((t) => [t.waybillNo, t.status])).toEqual([
    [released.waybillNo, 'released'],
    [refused.waybillNo, 'shipped'],
    [held.waybillNo, 'created'],
  ]);
  expect(customerErrors).toEqual([]);
  expect(operatorErrors).toEqual([]);
  await customerCtx.close();
  await operatorCtx.close();
});
