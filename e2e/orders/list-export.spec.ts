/**
 * Order List export (issue 5): the current filter downloaded as xlsx; its rows are the
 * filtered list, in the list's order, masked like the list.
 */
import { expect, test } from '../support/test.ts';
import ExcelJS from 'exceljs';
import { MAIN } from '../servers.ts';
import { choose, listOrders, totalText } from '../support/orders.ts';
import { loginByCookie } from '../support/session.ts';

test('Order List: export of the current filter → an xlsx whose rows equal the filtered list', async ({
  page,
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'demo');
  const filtered = await listOrders(request, token, { status: 'printed', channel: 'JP', limit: 500 });
  const all = await listOrders(request, token, { limit: 1 });
  expect(filtered.total).toBeGreaterThan(1);
  expect(filtered.total).toBeLessThan(all.total);
  expect(filtered.list).toHaveLength(filtered.total);

  await page.goto(`${MAIN}/home/order/list`);
  await choose(page, page.getByTestId('list-status'), '已打印');
  await choose(page, page.getByTestId('list-channel'), 'JP');
  await page.getByTestId('list-search').click();
  await expect(totalText(page.getByTestId('order-table'))).toHaveText(String(filtered.total));

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('list-export').click()]);
  expect(download.suggestedFilename()).toMatch(/^订单-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(await download.path());
  const ws = wb.getWorksheet('订单')!;
  expect(ws).toBeTruthy();
  const header = (ws.getRow(1).values as unknown[]).slice(1).map(String);
  expect(header.slice(0, 6)).toEqual(['订单号', '运单号', '渠道', '客户', '批次号', '状态']);
  const col = (title: string) => header.indexOf(title) + 1;

  const rows: Record<string, string>[] = [];
  ws.eachRow((r, n) => {
    if (n === 1) return;
    rows.push({
      orderNo: String(r.getCell(col('订单号')).value),
      waybillNo: String(r.getCell(col('运单号')).value ?? ''),
      channel: String(r.getCell(col('渠道')).value),
      customer: String(r.getCell(col('客户')).value),
      status: String(r.getCell(col('状态')).value),
      recipient: String(r.getCell(col('收件人')).value),
      phone: String(r.getCell(col('电话')).value),
    });
  });
  // Exactly the filtered orders, in the list's order, and nothing of another status, channel or tenant.
  expect(rows.map((r) => r.orderNo)).toEqual(filtered.list.map((o) => o.orderNo));
  expect(rows.map((r) => r.waybillNo)).toEqual(filtered.list.map((o) => o.waybillNo ?? ''));
  expect(new Set(rows.map((r) => r.channel))).toEqual(new Set(['JP']));
  // Status by name in the workbook's language, not the code.
  expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['已打印']));
  expect(new Set(rows.map((r) => r.customer))).toEqual(new Set(['DEMO']));
  // Masked like the list: the same masked name and phone, never a full mobile number.
  expect(rows.map((r) => [r.recipient, r.phone])).toEqual(
    filtered.list.map((o) => [o.recipientName, o.recipientPhone]),
  );
  for (const r of rows) expect(r.phone).not.toMatch(/^1\d{10}$/);
});
