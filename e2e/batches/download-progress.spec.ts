/**
 * Download progress (issue 10 leftover) and exports that say what the screen says (issue 11
 * #12): the Order List export and the Batch List downloads show a progress bar fed by
 * `export/progress` until the file comes; the batch's order workbook has the screen's
 * labels, UTC+8 times, prices in the currency's units and masked phones.
 */
import { expect as baseExpect, test, type Page, type Route } from '../support/test.ts';
import ExcelJS from 'exceljs';
import { MAIN } from '../servers.ts';
import { listOrders } from '../support/orders.ts';
import { api, loginByCookie } from '../support/session.ts';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

type Progress = { phase: string; rows: number; total: number | null };

/**
 * Holds the finished file back until the test has seen the progress the console polled from the
 * server (a small export is built in a blink): `release` lets it through. A gate rather than a
 * fixed delay (issue 37): a loaded machine gets as long as it needs, a quiet one no longer.
 * The download call itself answers at once (202, issue 38 item 6: `statuses`); the file comes
 * from `export/file`, which is what the gate holds.
 */
async function holdDownload(page: Page, path: string) {
  const answers: Progress[] = [];
  const statuses: number[] = [];
  page.on('response', async (r) => {
    if (r.url().endsWith('/api/export/progress') && r.ok()) answers.push(((await r.json()) as { data: Progress }).data);
    if (r.url().endsWith(`/api/${path}`)) statuses.push(r.status());
  });
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  await page.route('**/api/export/file', async (route: Route) => {
    const response = await route.fetch();
    await gate;
    await route.fulfill({ response });
  });
  return { answers, statuses, release };
}

test('Order List export: the bar counts the rows the server writes, then the file comes', async ({
  page,
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'operator');
  const { total } = await listOrders(request, token, { limit: 1 });
  expect(total).toBeGreaterThan(100);
  const { answers, statuses, release } = await holdDownload(page, 'order/downloadOrderExcel');

  await page.goto(`${MAIN}/home/order/list`);
  await expect(page.getByTestId('order-table').locator('tbody tr.ant-table-row').first()).toBeVisible();
  const bar = page.getByTestId('download-progress');
  await expect(bar).toHaveCount(0);
  const downloaded = page.waitForEvent('download');
  await page.getByTestId('list-export').click();
  await expect(bar).toBeVisible();
  // Before the file arrives, the bar shows what the server reported: every row written.
  await expect(bar).toContainText(`（${total.toLocaleString('en')} 行）`);
  await expect(bar.locator('.ant-progress')).toHaveAttribute('aria-valuenow', '100');
  expect(answers.some((a) => a.phase === 'done' && a.rows === total && a.total === total)).toBe(true);
  release();
  const file = await downloaded;
  expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
  // Asked for without waiting: the call answered 202 with the download's id, not the file.
  expect(statuses).toEqual([202]);
  await expect(bar).toHaveAttribute('data-phase', 'done');
  // It goes away after a moment.
  await expect(bar).toHaveCount(0, { timeout: 10_000 });
});

test("Batch List: a batch's order workbook shows progress and the screen's words; the by-period one too", async ({
  page,
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'demo');
  const list = (
    await api<{ list: { id: number; batchNo: string; status: string }[] }>(
      request,
      'order/batches',
      { offset: 0, limit: 100, order: 'desc' },
      token,
    )
  ).body.data.list;
  // A seeded batch with orders on the first page of the list.
  let batch: { id: number; batchNo: string } | undefined;
  for (const b of list.slice(0, 10).filter((x) => x.status === 'done')) {
    const orders = await api<{ total: number }>(request, 'order/orders', { offset: 0, limit: 1, batchId: b.id }, token);
    if (orders.body.data.total > 0) {
      batch = b;
      break;
    }
  }
  expect(batch).toBeTruthy();
  const { answers, release } = await holdDownload(page, 'order/batch/download/excel');

  await page.goto(`${MAIN}/home/order/batchList`);
  const button = page.getByTestId(`batch-excel-${batch!.batchNo}`);
  await expect(button).toBeVisible();
  const bar = page.getByTestId('download-progress');
  const downloaded = page.waitForEvent('download');
  await button.click();
  await expect(bar).toBeVisible();
  await expect(bar).toContainText(/Excel 已生成（[\d,]+ 行）/);
  release();
  const file = await downloaded;
  const done = answers.find((a) => a.phase === 'done');
  expect(done).toBeTruthy();

  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(await file.path());
  const ws = wb.worksheets[0]!;
  expect(ws.actualRowCount - 1).toBe(done!.total);
  const header = (ws.getRow(1).values as unknown[]).slice(1).map(String);
  expect(header).toContain('单价');
  expect(header).not.toContain('单价（最小单位）');
  const col = (title: string) => header.indexOf(title) + 1;
  const cells = (title: string) => {
    const out: unknown[] = [];
    ws.eachRow((r, n) => void (n > 1 && out.push(r.getCell(col(title)).value)));
    return out;
  };
  const statuses = cells('状态');
  expect(statuses.length).toBeGreaterThan(0);
  expect(statuses.every((s) => ['已创建', '已打印', '已收货', '已发货', '已放行', '已取消'].includes(String(s)))).toBe(
    true,
  );
  expect(cells('电话').every((p) => /^\d{3}\*{4}\d{4}$|\*/.test(String(p)))).toBe(true);
  expect(cells('创建时间 (UTC+8)').every((v) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(String(v)))).toBe(true);

  // The by-period download, in English: the same bar, in English words.
  await page.evaluate(() => localStorage.setItem('1.21.2-locale', '"en"'));
  await page.reload();
  const byTimeHeld = await holdDownload(page, 'order/batch/download/excelByTime');
  await page.getByTestId('batch-by-time').hover();
  const byTime = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Last three months' }).click();
  await expect(bar).toContainText(/Workbook built \([\d,]+ rows\), downloading/);
  byTimeHeld.release();
  const periodFile = await byTime;
  const pwb = new ExcelJS.Workbook();
  await pwb.xlsx.readFile(await periodFile.path());
  expect((pwb.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toContain('Unit price');
});
