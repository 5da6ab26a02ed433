/**
 * Batch List, every control (issue 11 findings 1 and 22): paging with the size changer, the
 * filters with search and reset, the by-period download, each row's order workbook and error
 * workbook, delete, and live progress. On the SHORT_TTL server: batches are cloned in its
 * file, a batch with an error workbook is uploaded through the API.
 */
import { writeFileSync } from 'node:fs';
import { expect as baseExpect, test, type APIRequestContext, type Page } from '../support/test.ts';
import ExcelJS from 'exceljs';
import { SHORT_TTL, dbFile } from '../servers.ts';
import { fillTemplate, importRow } from '../support/import.ts';
import { choose } from '../support/orders.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';
import { choosePageSize, cloneRows, expectRows, gotoPage, sql, sqlGet } from '../support/tables.ts';

// A busy machine (two cores for many browsers) answers slower than the default 10 s allows.
const expect = baseExpect.configure({ timeout: 30_000 });

type Batch = {
  id: number;
  batchNo: string;
  status: string;
  progress: number;
  orderCount: number;
  hasErrorWorkbook: boolean;
};
const table = (page: Page) => page.getByTestId('batch-table');
const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
const batches = async (request: APIRequestContext, token: string, body: Record<string, unknown> = {}) =>
  (
    await api<{ total: number; list: Batch[] }>(
      request,
      'order/batches',
      { offset: 0, limit: 20, order: 'desc', ...body },
      await apiLogin(request, 'demo', SHORT_TTL),
      SHORT_TTL,
    )
  ).body.data;
const run = Date.now().toString(36).toUpperCase();

/** A Japan-parcel upload with one invalid row (no phone): a preview with an error workbook. */
async function uploadWithErrors(request: APIRequestContext) {
  const headers = { Authorization: `Bearer ${await apiLogin(request, 'demo', SHORT_TTL)}` };
  const template = await request.post(`${SHORT_TTL}/api/download/importOrder`, { data: {}, headers });
  expect(template.status()).toBe(200);
  const file = `${process.env.E2E_RUN_DIR ?? '/tmp'}/batch-list-template.xlsx`;
  writeFileSync(file, await template.body());
  const bad = await fillTemplate(file, [importRow(`E2EBL${run}`, '')]);
  const res = await request.post(`${SHORT_TTL}/api/order/batch/createImport`, {
    headers,
    multipart: {
      channel: 'JP',
      file: { name: 'errors.xlsx', mimeType: 'application/octet-stream', buffer: bad },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const { id } = ((await res.json()) as { data: { id: number } }).data;
  await expect
    .poll(
      async () =>
        (
          await api<Batch>(
            request,
            'order/batch/progress',
            { id },
            await apiLogin(request, 'demo', SHORT_TTL),
            SHORT_TTL,
          )
        ).body.data.status,
      {
        timeout: 60_000,
      },
    )
    .not.toBe('parsing');
  return id;
}

async function download(page: Page, click: () => Promise<unknown>) {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return file;
}

test.describe('Batch List controls', () => {
  test.describe.configure({ timeout: 300_000 });
  let running = 0;
  let empty: number[] = [];
  test.beforeAll(() => {
    const file = dbFile('short-ttl');
    const [seed] = sqlGet<{ id: number }>(
      file,
      `SELECT min(b.id) AS id FROM batches b JOIN users u ON u.id = b.created_by WHERE u.name = 'demo'`,
    );
    // Batches without orders, for paging and delete.
    empty = cloneRows(file, 'batches', seed!.id, 14, {
      batch_no: `'E2EB${run}' || :n`,
      order_count: '0',
      created_at: `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || :n || ' minutes')`,
    });
    [running] = cloneRows(file, 'batches', seed!.id, 1, {
      batch_no: `'E2ER${run}'`,
      status: "'parsing'",
      progress: '30',
      order_count: '0',
      created_at: `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    });
  });

  test('finding 1 / 22: paging, size changer, filters, search and reset show the API’s rows', async ({
    page,
    context,
    request,
  }) => {
    const token = await loginByCookie(context, request, 'demo', SHORT_TTL);
    sql(dbFile('short-ttl'), `UPDATE batches SET status = 'done', progress = 100 WHERE id = :id`, { id: running });
    const first = await batches(request, token, { limit: 10 });
    expect(first.total).toBeGreaterThan(10);
    await page.goto(`${SHORT_TTL}/home/order/batchList`);
    await expect(table(page).locator('tbody tr.ant-table-row').first()).toBeVisible({ timeout: 60_000 });
    await choosePageSize(page, table(page), 10);
    await expectRows(table(page), ids(first.list));
    await gotoPage(table(page), 2);
    await expectRows(table(page), ids((await batches(request, token, { offset: 10, limit: 10 })).list));

    // Batch number: page 1 again, that batch.
    await page.getByTestId('filter-batchNo').fill(`E2EB${run}1`);
    await page.getByTestId('batch-search').click();
    const byNo = await batches(request, token, { batchNo: `E2EB${run}1`, limit: 10 });
    await expectRows(table(page), ids(byNo.list));
    // Channel and status.
    await page.getByTestId('batch-reset').click();
    await expectRows(table(page), ids(first.list));
    await choose(page, page.getByLabel('渠道'), 'EMS');
    await page.getByTestId('batch-search').click();
    await expectRows(table(page), ids((await batches(request, token, { channel: 'EMS', limit: 10 })).list));
    await page.getByTestId('batch-reset').click();
    await choose(page, page.getByLabel('状态'), '已完成');
    await page.getByTestId('batch-search').click();
    await expectRows(table(page), ids((await batches(request, token, { status: 'done', limit: 10 })).list));
  });

  test('finding 22: by-period download, order workbook, error workbook, delete and live progress', async ({
    page,
    context,
    request,
  }) => {
    const token = await loginByCookie(context, request, 'demo', SHORT_TTL);
    const withErrors = await uploadWithErrors(request);
    // A heartbeat of now: the server's 30-second sweep fails a parsing batch whose heartbeat stopped
    // (null or past 60 s), which made this batch fail mid-test whenever the sweep came between.
    const beat = `heartbeat_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
    sql(dbFile('short-ttl'), `UPDATE batches SET status = 'parsing', progress = 30, ${beat} WHERE id = :id`, {
      id: running,
    });
    const all = (await batches(request, token, { limit: 100 })).list;
    // A seeded batch whose orders the API lists.
    let withOrders: Batch | undefined;
    let orderTotal = 0;
    let firstOrderNo = '';
    for (const b of all.filter((x) => x.status === 'done' && !x.batchNo.startsWith('E2E'))) {
      const page1 = await api<{ total: number; list: { orderNo: string }[] }>(
        request,
        'order/orders',
        { offset: 0, limit: 1, order: 'desc', batchId: b.id },
        await apiLogin(request, 'demo', SHORT_TTL),
        SHORT_TTL,
      );
      if (page1.body.data.total > 0) {
        [withOrders, orderTotal, firstOrderNo] = [b, page1.body.data.total, page1.body.data.list[0]!.orderNo];
        break;
      }
    }
    expect(withOrders).toBeTruthy();
    const errored = all.find((b) => b.id === withErrors)!;
    expect(errored.hasErrorWorkbook).toBe(true);

    await page.goto(`${SHORT_TTL}/home/order/batchList`);
    await expect(table(page).locator('tbody tr.ant-table-row').first()).toBeVisible({ timeout: 60_000 });
    await choosePageSize(page, table(page), 100);

    // Live progress: the running batch's bar follows the server without a reload.
    const bar = table(page).locator(`tr[data-row-key="${running}"] .ant-progress`);
    await expect(bar).toHaveAttribute('aria-valuenow', '30');
    sql(dbFile('short-ttl'), `UPDATE batches SET progress = 70, ${beat} WHERE id = :id`, { id: running });
    await expect(bar).toHaveAttribute('aria-valuenow', '70', { timeout: 15_000 });
    sql(dbFile('short-ttl'), `UPDATE batches SET status = 'done', progress = 100 WHERE id = :id`, { id: running });
    // At 100 % the bar shows a check mark instead of the figure.
    await expect(bar).toHaveAttribute('aria-valuenow', '100', { timeout: 15_000 });

    // The batch's orders workbook: one row per order of the batch.
    const orders = await download(page, () => page.getByTestId(`batch-excel-${withOrders!.batchNo}`).click());
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(await orders.path());
    const sheet = wb.worksheets[0]!;
    const dataRows = sheet.actualRowCount - 1;
    // At least one row per order (below the header), the batch's orders among them.
    expect(dataRows).toBeGreaterThanOrEqual(orderTotal);
    const cells: string[] = [];
    sheet.eachRow((row) => row.eachCell((c) => void cells.push(String(c.value))));
    expect(cells).toContain(firstOrderNo);

    // The error workbook of the upload with an invalid row.
    const errorsFile = await download(page, () => page.getByTestId(`batch-errors-${errored.batchNo}`).click());
    const ewb = new ExcelJS.Workbook();
    await ewb.xlsx.readFile(await errorsFile.path());
    expect(ewb.worksheets[0]!.actualRowCount).toBeGreaterThan(1);

    // By period: a workbook comes down.
    await page.getByTestId('batch-by-time').hover();
    const byTime = await download(page, () => page.getByRole('menuitem', { name: '最近一周' }).click());
    expect(byTime.suggestedFilename()).toMatch(/\.xlsx$/);

    // Delete an empty batch: gone from the page and the API.
    const victim = all.find((b) => b.id === empty[0])!;
    await page.getByTestId(`batch-delete-${victim.batchNo}`).click();
    await page.getByTestId('batch-delete-ok').click();
    await expect(table(page).locator(`tr[data-row-key="${victim.id}"]`)).toHaveCount(0);
    expect((await batches(request, token, { batchNo: victim.batchNo })).total).toBe(0);
  });
});
