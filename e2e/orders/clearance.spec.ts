/**
 * Clearance results (issue 13): an operator uploads a clearance company's result sheet with one
 * release and one refusal and sees the outcome; the refused order's customer sees it on the
 * header badge and the Error Order List, fixes the recipient's address on the shipped order, and
 * the badge goes down. The orders are the demo seed's shipped HZ-CB orders still waiting for a
 * result (seed/clearance.ts).
 */
import { expect, test, type APIRequestContext } from '../support/test.ts';
import ExcelJS from 'exceljs';
import { MAIN } from '../servers.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';
import type { OrderRow } from '../support/orders.ts';

type Detail = {
  id: number;
  orderNo: string;
  waybillNo: string | null;
  status: string;
  clearanceCompany: string | null;
  errorReason: string | null;
};

/** The customer's shipped HZ-CB order that has no result yet. */
async function awaiting(request: APIRequestContext, user: string) {
  const token = await apiLogin(request, user);
  const list = await api<{ list: OrderRow[] }>(
    request,
    'order/orderList',
    { offset: 0, limit: 100, order: 'asc', status: 'shipped' },
    token,
  );
  expect(list.status).toBe(200);
  for (const r of list.body.data.list) {
    const d = (await api<Detail>(request, 'order/order', { id: r.id }, token)).body.data;
    if (d.clearanceCompany === 'HZ-CB' && !d.errorReason && d.waybillNo) return d;
  }
  throw new Error(`no shipped HZ-CB order of ${user} waits for a result`);
}

async function resultSheet(rows: (string | null)[][]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('结果');
  ws.addRow(['运单号', '结果（放行 / 退单）', '原因代码', '备注']);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

test('clearance results: an operator uploads a refusal; the customer fixes it and the badge goes down', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const refused = await awaiting(request, 'demo');
  const released = await awaiting(request, 'demo2');

  // The operator's page: company, upload, outcome.
  await loginByCookie(context, request, 'operator');
  await page.goto(`${MAIN}/home/clearance/results`);
  await expect(page.getByTestId('clearance-page')).toBeVisible();
  await page.getByTestId('clearance-company').click();
  await page.locator('.ant-select-item-option', { hasText: 'HZ-CB' }).click();
  const data = await resultSheet([
    [released.waybillNo, '放行', null, null],
    [refused.waybillNo, '退单', 'C03', '地址不详'],
  ]);
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/clearance/upload'));
  await page.locator('input[type=file]').setInputFiles({
    name: 'results.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: data,
  });
  expect((await answer).status()).toBe(200);
  await expect(page.getByTestId('clearance-outcome')).toContainText('放行 1 单，退单 1 单');
  await expect(page.getByTestId('clearance-progress').locator('.ant-progress')).toHaveClass(/success/);
  await expect(page.getByTestId('clearance-refused')).toHaveText('1');

  // The customer: badge, list, fix.
  await context.clearCookies();
  const token = await loginByCookie(context, request, 'demo');
  const total = async () =>
    (await api<{ total: number }>(request, 'order/error', { offset: 0, limit: 1, order: 'desc' }, token)).body.data
      .total;
  const before = await total();
  await page.goto(`${MAIN}/home/order/error`);
  const badge = page.getByTestId('badge-error');
  await expect(badge).toHaveAttribute('data-count', String(before));
  const search = page.getByTestId('error-search').locator('input');
  await search.fill(refused.orderNo);
  await search.press('Enter');
  const row = page.getByTestId('error-table').locator('.ant-table-row', { hasText: refused.orderNo });
  await expect(row).toContainText('海关：收件人地址不完整或有误。');
  await page.getByTestId(`fix-${refused.orderNo}`).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('fix-shipped')).toBeVisible();
  await expect(dialog.getByTestId('fix-save')).toBeDisabled();
  // A change that is not what the refusal names (the address) is saved, but the error stands,
  // and the page says so rather than "fixed".
  await dialog.getByTestId('r-phone').fill('13900001111');
  await dialog.getByTestId('fix-save').click();
  await expect(page.locator('.ant-message')).toContainText('订单仍是错误订单');
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(1);
  await expect(badge).toHaveAttribute('data-count', String(before));
  await page.getByTestId(`fix-${refused.orderNo}`).click();
  await dialog.getByTestId('r-address').fill('文三路100号3幢501室');
  await dialog.getByTestId('fix-save').click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
  await expect(badge).toHaveAttribute('data-count', String(before - 1));

  const after = (
    await api<Detail & { recipient: { address: string } }>(request, 'order/order', { id: refused.id }, token)
  ).body.data;
  expect([after.status, after.errorReason, after.recipient.address]).toEqual(['shipped', null, '文三路100号3幢501室']);
});
