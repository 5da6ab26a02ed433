/**
 * Bills as a customer sees them (issue 17): orders the operator received and shipped are charged
 * on the customer's open statement of the month; the Bill page shows the chart, the statement
 * with its totals, its lines (the shipped orders' freight) and downloads it as an xlsx.
 */
import { readFile } from 'node:fs/promises';
import { expect as baseExpect, test } from '../support/test.ts';
import ExcelJS from 'exceljs';
import { MAIN } from '../servers.ts';
import { aesApi } from '../support/aes.ts';
import { createOrder } from '../support/orders.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

test('bills: shipped orders are charged on the customer’s statement, shown with lines and downloaded', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const demo = await apiLogin(request, 'demo');
  const operator = await apiLogin(request, 'operator');
  const orders = await Promise.all([0, 1].map(() => createOrder(request, demo)));
  const stored = await aesApi(
    request,
    'storageOrder/create',
    { waybillNos: orders.map((o) => o.waybillNo!) },
    operator,
  );
  expect(stored.status).toBe(200);
  const shipped = await aesApi<{ lines: { outcome: string }[] }>(
    request,
    'storageOrder/outBatch',
    { orderIds: orders.map((o) => o.id) },
    operator,
  );
  expect(shipped.body.data.lines.map((l) => l.outcome)).toEqual(['shipped', 'shipped']);
  const bills = await api<{ list: { id: number; period: string; status: string; totalCny: string }[] }>(
    request,
    'bills',
    { status: 'open', limit: 50 },
    demo,
  );
  const current = bills.body.data.list[0]!;

  const context = await browser.newContext({ acceptDownloads: true });
  await loginByCookie(context, request, 'demo');
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const errors = watchPageErrors(page);
  await page.goto(`${MAIN}/home/bill`);
  await expect(page.getByTestId('bill-chart').locator(`g[data-period="${current.period}"]`)).toHaveAttribute(
    'data-total',
    current.totalCny,
  );
  const table = page.getByTestId('bill-table');
  const row = table.locator(`tr[data-period="${current.period}"]`);
  await expect(row).toHaveAttribute('data-status', 'open');
  await expect(row).toContainText(current.totalCny);
  // A customer sees no customer column and no operator buttons.
  await expect(table.locator('th', { hasText: '客户' })).toHaveCount(0);
  await expect(row.getByRole('button', { name: '出账', exact: true })).toHaveCount(0);

  // The lines, newest first: each shipped order's freight.
  await row.getByText(current.period).click();
  const lines = page.getByTestId('bill-lines');
  await expect(lines.locator('tbody tr[data-kind]').first()).toBeVisible();
  for (const o of orders) {
    await expect(lines.locator('tr[data-kind="freight"]', { hasText: o.orderNo })).toContainText('运费');
  }
  await page.keyboard.press('Escape');

  const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('bill-download').click()]);
  expect(download.suggestedFilename()).toBe(`账单-DEMO-${current.period}.xlsx`);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await readFile((await download.path())!)) as never);
  const cells: string[] = [];
  wb.worksheets[0]!.eachRow((r) => cells.push(r.values ? (r.values as unknown[]).join('|') : ''));
  for (const o of orders) expect(cells.some((c) => c.includes(o.orderNo) && c.includes('运费'))).toBe(true);
  expect(cells.at(-1)).toContain(current.totalCny);
  expect(errors).toEqual([]);
  await context.close();
});
