/**
 * MDA downloads (issue 15): on the Batch List a batch's MDA menu gives the broker's workbook
 * with a progress bar; the file holds one row per item line of the batch's orders, each with
 * the exporter (the orders' export nomination) and a value in JPY. Every other MDA download of the
 * batch menu and of the Order List's menu (chosen orders) comes as its file (issue 28 item 25).
 */
import { type APIRequestContext, expect as baseExpect, test, type Page } from '../support/test.ts';
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { MAIN } from '../servers.ts';
import { api, loginByCookie } from '../support/session.ts';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 120_000 });

/**
 * The oldest done Japan batch (a seeded batch, whose orders name an export nomination): other
 * specs import newer JP batches without one.
 */
async function seededJpBatch(request: APIRequestContext, token: string) {
  const batches = (
    await api<{ list: { id: number; batchNo: string; status: string; channel: string }[] }>(
      request,
      'order/batches',
      { offset: 0, limit: 100, order: 'asc' },
      token,
    )
  ).body.data.list;
  return batches.find((b) => b.status === 'done' && b.channel === 'JP');
}

test('Batch List: the MDA workbook (layout 1) of a Japan batch, read back', async ({ page, context, request }) => {
  const token = await loginByCookie(context, request, 'demo');
  const batch = await seededJpBatch(request, token);
  expect(batch).toBeTruthy();
  const orders = (
    await api<{ total: number; list: { orderNo: string }[] }>(
      request,
      'order/orders',
      { offset: 0, limit: 100, batchId: batch!.id },
      token,
    )
  ).body.data;
  expect(orders.total).toBeGreaterThan(0);

  await page.goto(`${MAIN}/home/order/batchList`);
  const menu = page.getByTestId(`batch-mda-${batch!.batchNo}`);
  await expect(menu).toBeVisible();
  await menu.hover();
  const downloaded = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'MDA 明细（格式 1）' }).click();
  const bar = page.getByTestId('download-progress');
  await expect(bar).toBeVisible();
  const file = await downloaded;
  expect(file.suggestedFilename()).toMatch(/^MDA-\d{12}\.xlsx$/);
  await expect(bar).toHaveAttribute('data-phase', 'done');

  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(await file.path());
  const ws = wb.worksheets[0]!;
  const header = (ws.getRow(1).values as unknown[]).slice(1).map(String);
  expect(header.slice(0, 2)).toEqual(['注文番号 Order no.', '欄番号 Line no.']);
  const col = (title: string) => header.indexOf(title) + 1;
  const rows: ExcelJS.Row[] = [];
  ws.eachRow((r, n) => void (n > 1 && rows.push(r)));
  expect(rows.length).toBeGreaterThanOrEqual(orders.total);
  // Every order of the batch, and nothing else.
  const inFile = new Set(rows.map((r) => String(r.getCell(1).value)));
  expect([...inFile].sort()).toEqual(orders.list.map((o) => o.orderNo).sort());
  for (const r of rows) {
    expect(r.getCell(col('バッチ番号 Batch no.')).value).toBe(batch!.batchNo);
    // The seeded exporter: demo's first export nomination.
    expect(r.getCell(col('輸出者名 Exporter (en)')).value).toBe('DEMO Trading Co., Ltd.');
    expect(r.getCell(col('法人番号 Corporate no.')).value).toBe('7000012050002');
    expect(r.getCell(col('単位 Unit')).value).toBe('PCE');
    // JPY orders: a whole-yen value on each line.
    expect(Number.isInteger(r.getCell(col('申告価格 Value (JPY)')).value)).toBe(true);
  }
  // Line numbers restart at 1 in each order.
  const firstLines = rows.filter((r) => r.getCell(2).value === 1).length;
  expect(firstLines).toBe(orders.total);
});

/** Chooses an MDA download from a menu and checks the file that comes: its kind, by name and first bytes. */
async function downloadFrom(page: Page, menuTestId: string, key: string, kind: 'xlsx' | 'pdf') {
  await expect(page.getByTestId(menuTestId)).toBeEnabled();
  await page.getByTestId(menuTestId).hover();
  const downloaded = page.waitForEvent('download');
  await page.getByTestId(`${menuTestId}-${key}`).click();
  const file = await downloaded;
  expect(file.suggestedFilename(), key).toMatch(new RegExp(`\\.${kind}$`));
  const head = (await readFile(await file.path())).subarray(0, 4).toString('latin1');
  expect(head, key).toBe(kind === 'pdf' ? '%PDF' : 'PK\u0003\u0004');
  await expect(page.getByTestId('download-progress')).toHaveAttribute('data-phase', 'done');
}

test('every other MDA download: the batch menu’s four, and the Order List’s three for chosen orders', async ({
  page,
  context,
  request,
}) => {
  // Seven files, each built in the file workers one after the other.
  test.setTimeout(240_000);
  const token = await loginByCookie(context, request, 'demo');
  const batch = (await seededJpBatch(request, token))!;

  await page.goto(`${MAIN}/home/order/batchList`);
  const batchMenu = `batch-mda-${batch.batchNo}`;
  await downloadFrom(page, batchMenu, 'orders', 'xlsx');
  await downloadFrom(page, batchMenu, 'category', 'xlsx');
  await downloadFrom(page, batchMenu, 'pd', 'pdf');
  await downloadFrom(page, batchMenu, 'pdBatch', 'pdf');

  await page.goto(`${MAIN}/home/order/list`);
  const rows = page.getByTestId('order-table').locator('tbody tr.ant-table-row');
  await expect(page.getByTestId('list-mda')).toBeDisabled();
  for (const i of [0, 1]) await rows.nth(i).locator('.ant-checkbox-input').check();
  await downloadFrom(page, 'list-mda', 'orders', 'xlsx');
  await downloadFrom(page, 'list-mda', 'pd', 'pdf');
  await downloadFrom(page, 'list-mda', 'pdBatch', 'pdf');
});
