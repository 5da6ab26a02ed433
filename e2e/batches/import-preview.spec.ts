/**
 * The import preview as a user meets it (issue 11 findings 4–7): importing the valid orders of a
 * sheet with errors, the rows that need confirmation, a sheet of another template, and where the
 * page leads after success (the batch's orders, Batch List's customer, reopening a preview).
 */
import { writeFileSync } from 'node:fs';
import { expect as baseExpect, test, type APIRequestContext, type Page } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { fillTemplate, importRow } from '../support/import.ts';
import { idCard } from '../support/orders.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';

// A busy machine (two cores for many browsers) answers slower than the default 10 s allows.
const expect = baseExpect.configure({ timeout: 30_000 });
const run = Date.now().toString(36).toUpperCase();
/** A minor's ID number (born 2010) with its check character. */
const minorId = () => {
  const f = '11010520100101123';
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...f].reduce((s, d, i) => s + Number(d) * w[i]!, 0);
  return f + '10X98765432'[sum % 11]!;
};

async function jpTemplate(page: Page) {
  await page.goto(`${MAIN}/home/order/createImport`);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-template').click()]);
  return dl.path();
}
const upload = (page: Page, buffer: Buffer) =>
  page.locator('input[type=file]').setInputFiles({ name: 'orders.xlsx', mimeType: 'application/octet-stream', buffer });

async function ordersOfBatch(request: APIRequestContext, token: string, batchNo: string) {
  const r = await api<{ total: number; list: { orderNo: string; channel: string }[] }>(
    request,
    'order/orderList',
    { offset: 0, limit: 100, order: 'desc', noType: 'batchNo', numbers: batchNo },
    token,
  );
  return r.body.data;
}

test('finding 4: 2 valid and 6 invalid rows — import the 2 now, the batch links to its orders', async ({
  page,
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'demo');
  const tpl = await jpTemplate(page);
  const no = (s: string) => `E2EP${run}${s}`;
  const rows = [
    importRow(no('OK1'), '13800138001'),
    { ...importRow(no('B1')), 'Recipient Phone': '' },
    { ...importRow(no('B2')), 'Recipient ID Card': '110105199001011230' },
    { ...importRow(no('B3')), Province: '火星' },
    importRow(no('OK2'), '13800138002'),
    // One order of two rows whose second row is wrong: both rows count, both are listed.
    importRow(no('B4')),
    { ...importRow(no('B4')), Quantity: 'x' },
    { ...importRow(no('B5')), 'Recipient Name': '' },
  ];
  await upload(page, await fillTemplate(tpl, rows));
  const preview = page.getByTestId('preview');
  await expect(preview).toBeVisible();
  await expect(page.getByTestId('preview-summary')).toContainText('2 个订单可创建');
  await expect(page.getByTestId('preview-summary')).toContainText('5 个订单有错误（6 行）');
  // "错误 6 行" and six rows listed.
  await expect(page.getByTestId('errors-title')).toHaveText('错误 6 行');
  const listedRows = await page
    .getByTestId('errors-table')
    .locator('tbody tr.ant-table-row td:first-child')
    .allInnerTexts();
  expect(new Set(listedRows).size).toBe(6);
  // Each choice says how many orders it makes.
  await expect(page.getByTestId('import-valid')).toHaveText('现在导入 2 个有效订单');
  await expect(page.getByTestId('fix-note')).toContainText('将创建 7 个订单');
  await expect(page.getByTestId('download-errors')).toBeVisible();

  await page.getByTestId('import-valid').click();
  await expect(page.getByTestId('done')).toBeVisible();
  await expect(page.getByTestId('done')).toContainText('2 个订单');
  const batchNo = /B\d+/.exec(await page.getByTestId('done').innerText())![0];
  const made = await ordersOfBatch(request, token, batchNo);
  expect(made.list.map((o) => o.orderNo).sort()).toEqual([no('OK1'), no('OK2')]);

  // The success message leads to the batch's orders: Order List filtered by the batch.
  await page.getByTestId('done-orders').click();
  await expect(page).toHaveURL(new RegExp(`/home/order/list\\?batchNo=${batchNo}$`));
  const table = page.getByTestId('order-table');
  await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(2);
  await expect(table).toContainText(no('OK1'));
  await expect(table).toContainText(no('OK2'));
});

test('finding 5: the orders that need confirmation are listed with their reasons, each kind confirmed', async ({
  page,
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'demo');
  const tpl = await jpTemplate(page);
  const no = (s: string) => `E2EC${run}${s}`;
  const rows = [
    { ...importRow(no('MINOR')), 'Recipient ID Card': minorId() },
    { ...importRow(no('JAN')), JAN: '4901234567894', 'Unit Price': 100 },
    { ...importRow(no('JAN')), JAN: '4901234567894', 'Unit Price': 200 },
    { ...importRow(no('LIMIT')), 'Unit Price': 120000 },
    { ...importRow(no('OK')), 'Recipient ID Card': idCard() },
  ];
  await upload(page, await fillTemplate(tpl, rows));
  const list = page.getByTestId('confirm-table');
  await expect(list.locator('tbody tr.ant-table-row')).toHaveCount(3);
  await expect(page.getByTestId('preview-summary')).toContainText('4 个订单可创建（其中 3 个需确认）');
  await expect(list).toContainText(no('MINOR'));
  await expect(list).toContainText(no('JAN'));
  await expect(list).toContainText(no('LIMIT'));
  const kinds = page.getByTestId('confirm-kinds').locator('label');
  await expect(kinds).toHaveCount(3);
  // Each kind counts the orders listed with it.
  for (const label of await kinds.allInnerTexts()) expect(label).toMatch(/（1 个订单）$/);
  const confirm = page.getByTestId('confirm');
  await expect(confirm).toHaveText('确认创建 4 个订单');
  for (let i = 0; i < 3; i++) {
    await expect(confirm).toBeDisabled();
    await kinds.nth(i).click();
  }
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(page.getByTestId('done')).toBeVisible();
  const batchNo = /B\d+/.exec(await page.getByTestId('done').innerText())![0];
  expect((await ordersOfBatch(request, token, batchNo)).total).toBe(4);
});

test('finding 6: a Japan-parcel sheet uploaded as Singapore is refused, naming the Japan template', async ({
  page,
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'demo');
  const tpl = await jpTemplate(page);
  await page.getByTestId('template-kind').getByText('新加坡', { exact: true }).click();
  await upload(page, await fillTemplate(tpl, [importRow(`E2ES${run}`)]));
  const failed = page.getByTestId('failed');
  await expect(failed).toBeVisible();
  await expect(failed).toContainText('日本包裹进口订单模板');
  await expect(failed).toContainText('新加坡包裹模板');
  await expect(page.getByTestId('confirm')).toHaveCount(0);
  await expect(page.getByTestId('import-valid')).toHaveCount(0);

  // Batch List says why it failed, not only that it did.
  const newest = (
    await api<{ list: { batchNo: string; status: string }[] }>(
      request,
      'order/batches',
      { offset: 0, limit: 1, order: 'desc' },
      token,
    )
  ).body.data.list[0]!;
  expect(newest.status).toBe('failed');
  await page.goto(`${MAIN}/home/order/batchList`);
  await page.getByTestId('filter-batchNo').fill(newest.batchNo);
  await page.getByTestId('batch-search').click();
  await expect(page.getByTestId(`batch-reason-${newest.batchNo}`)).toContainText('日本包裹进口订单模板');
});

test('finding 7: Batch List shows agents the customer, reopens an unexpired preview, links a batch to its orders', async ({
  page,
  context,
  request,
}) => {
  // A preview left unconfirmed by DEMO's user.
  const demo = await apiLogin(request, 'demo');
  const headers = { Authorization: `Bearer ${demo}` };
  const template = await request.post(`${MAIN}/api/download/importOrder`, { data: {}, headers });
  const file = `${process.env.E2E_RUN_DIR ?? '/tmp'}/preview-template.xlsx`;
  writeFileSync(file, await template.body());
  const orderNo = `E2ER${run}`;
  const res = await request.post(`${MAIN}/api/order/batch/createImport`, {
    headers,
    multipart: {
      channel: 'JP',
      file: {
        name: 'left.xlsx',
        mimeType: 'application/octet-stream',
        buffer: await fillTemplate(file, [importRow(orderNo)]),
      },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const { batchNo } = ((await res.json()) as { data: { batchNo: string } }).data;
  await expect
    .poll(async () => {
      const r = await api<{ list: { status: string }[] }>(
        request,
        'order/batches',
        { offset: 0, limit: 1, order: 'desc', batchNo },
        demo,
      );
      return r.body.data.list[0]?.status;
    })
    .toBe('preview');

  const agent = await loginByCookie(context, request, 'agent');
  await page.goto(`${MAIN}/home/order/batchList`);
  await page.getByTestId('filter-batchNo').fill(batchNo);
  await page.getByTestId('batch-search').click();
  const table = page.getByTestId('batch-table');
  await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(1);
  // Whose batch it is, and until when its preview can be confirmed.
  await expect(table).toContainText('DEMO 演示商贸株式会社');
  await expect(page.getByTestId(`batch-preview-until-${batchNo}`)).toContainText('前有效');
  await page.getByTestId(`batch-open-${batchNo}`).click();
  await expect(page).toHaveURL(/\/home\/order\/createImport\?batch=\d+$/);
  await expect(page.getByTestId('preview-summary')).toContainText('1 个订单可创建');
  await page.getByTestId('confirm').click();
  await expect(page.getByTestId('done')).toBeVisible();
  expect((await ordersOfBatch(request, agent, batchNo)).list.map((o) => o.orderNo)).toEqual([orderNo]);

  // A seeded batch: its number links to its orders, as many as the list says, of its channel.
  await page.goto(`${MAIN}/home/order/batchList`);
  await page.getByTestId('filter-batchNo').fill('0001');
  await page.getByTestId('batch-search').click();
  const seeded = (
    await api<{ list: { batchNo: string; orderCount: number; channel: string; totalRows: number }[] }>(
      request,
      'order/batches',
      { offset: 0, limit: 5, order: 'desc', batchNo: '0001' },
      agent,
    )
  ).body.data.list.find((b) => /^B\d{8}0001$/.test(b.batchNo))!;
  expect(seeded.orderCount).toBeGreaterThan(0);
  expect(seeded.totalRows).toBeGreaterThanOrEqual(seeded.orderCount);
  const itsOrders = await ordersOfBatch(request, agent, seeded.batchNo);
  expect(itsOrders.total).toBe(seeded.orderCount);
  expect(new Set(itsOrders.list.map((o) => o.channel))).toEqual(new Set([seeded.channel]));
  await page.getByTestId(`batch-orders-${seeded.batchNo}`).click();
  await expect(page).toHaveURL(new RegExp(`/home/order/list\\?batchNo=${seeded.batchNo}$`));
  await expect(page.getByTestId('list-numbers')).toHaveValue(seeded.batchNo);
  await expect(page.getByTestId('order-table').locator('tbody tr.ant-table-row')).toHaveCount(
    Math.min(seeded.orderCount, 20),
  );
});

test('a reload mid-import reopens the upload’s preview, not an empty page (issue 36 #22)', async ({
  page,
  context,
  request,
}) => {
  await loginByCookie(context, request, 'demo');
  const tpl = await jpTemplate(page);
  await upload(page, await fillTemplate(tpl, [importRow(`E2EL${run}`, '13800138009')]));
  await expect(page.getByTestId('preview-summary')).toContainText('1 个订单可创建');
  // The address names the batch now.
  await expect(page).toHaveURL(/\/home\/order\/createImport\?batch=\d+$/);
  await page.reload();
  await expect(page.getByTestId('preview-summary')).toContainText('1 个订单可创建');
});
