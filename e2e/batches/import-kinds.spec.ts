/**
 * Every upload call of batch import, as the pages send it (issue 28 item 25): the template kind a
 * user picks decides the call (`batches.uploadOf`). For each kind not reached by the other import
 * specs — the order template, Japan box-C, USA box-C (the USA page) and EMS (the EMS page) — the
 * spec picks the kind, downloads its template, uploads one filled row, confirms, and checks what
 * the server made: the batch's template kind (set by the call that received the file, not by the
 * sheet) and its order with the kind's channel.
 */
import { expect as baseExpect, test, type APIRequestContext } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { fillTemplate, importRow } from '../support/import.ts';
import { aesApi } from '../support/aes.ts';
import { createItem } from '../support/items.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';

// A busy machine (two cores for many browsers) answers slower than the default 10 s allows.
const expect = baseExpect.configure({ timeout: 30_000 });
const run = Date.now().toString(36).toUpperCase();

const KINDS = [
  // page, the kind's label on it (zh), the call, what the server stores, the order's channel, row changes.
  {
    page: 'createImport',
    label: '订单模板',
    call: 'order/batch/create',
    kind: 'order',
    channel: 'JP',
    // The order template names the channel per row and has no box column.
    row: { Channel: 'JP', 'Box No.': undefined },
  },
  {
    page: 'createImport',
    label: '日本 C 箱',
    call: 'order/batch/createImportByBoxC',
    kind: 'importBoxC',
    channel: 'JP',
  },
  {
    page: 'createImportUsa',
    label: '美国 C 箱',
    call: 'order/batch/createUsaBoxcImport',
    kind: 'usaBoxC',
    channel: 'USA',
    // Dollars, not yen: 12 stays under the channel's value limits.
    row: { 'Unit Price': 12 },
  },
  {
    page: 'createImportEms',
    label: 'EMS',
    call: 'order/batch/createEmsImport',
    kind: 'ems',
    channel: 'EMS',
    // EMS takes only items its catalogue holds approved: the JAN of the item made below, its price.
    row: { 'Box No.': undefined, JAN: 'approved item', 'Unit Price': 500 },
  },
] as const;

async function batchOf(request: APIRequestContext, token: string, batchNo: string) {
  const r = await api<{ list: { batchNo: string; templateKind: string; channel: string }[] }>(
    request,
    'order/batches',
    { offset: 0, limit: 10, order: 'desc', batchNo },
    token,
  );
  return r.body.data.list.filter((b) => b.batchNo === batchNo);
}

async function ordersOf(request: APIRequestContext, token: string, batchNo: string) {
  const r = await api<{ list: { orderNo: string; channel: string; recipientProvince: string }[] }>(
    request,
    'order/orderList',
    { offset: 0, limit: 100, order: 'desc', noType: 'batchNo', numbers: batchNo },
    token,
  );
  return r.body.data.list;
}

test('each template kind uploads through its own call and makes the batch and order of that kind', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(180_000);
  const token = await loginByCookie(context, request, 'demo');
  const item = await createItem(request, token, { declarationPrice: '500' });
  const approved = await aesApi(request, 'item/approve', { id: item.id }, await apiLogin(request, 'operator'));
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  for (const k of KINDS) {
    await test.step(k.kind, async () => {
      await page.goto(`${MAIN}/home/order/${k.page}`);
      const kinds = page.getByTestId('template-kind');
      await kinds.getByText(k.label, { exact: true }).click();
      await expect(kinds.locator('.ant-segmented-item-selected')).toHaveText(k.label);
      const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-template').click()]);
      const orderNo = `E2EK${run}${k.kind.toUpperCase()}`;
      const row: Record<string, string | number> = { ...importRow(orderNo) };
      for (const [col, v] of Object.entries('row' in k ? k.row : {})) {
        if (v === undefined) delete row[col];
        else row[col] = v === 'approved item' ? item.jan : v;
      }
      const buffer = await fillTemplate(await dl.path(), [row]);

      // The file goes to the kind's call: its answer is the batch the preview shows.
      // (A bounded wait: a page sending another call fails here, naming the call, not at the test's timeout.)
      const uploaded = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/${k.call}`, {
        timeout: 30_000,
      });
      await page
        .locator('input[type=file]')
        .setInputFiles({ name: `${k.kind}.xlsx`, mimeType: 'application/octet-stream', buffer });
      expect((await uploaded).status()).toBe(200);
      await expect(page.getByTestId('upload-error')).toHaveCount(0);
      await expect(page.getByTestId('preview-summary')).toBeVisible();
      // No row refused (what the page lists, if any, is the failure's message).
      const errors = page.getByTestId('errors-table');
      expect((await errors.count()) ? await errors.innerText() : '').toBe('');
      await expect(page.getByTestId('preview-summary')).toContainText('1 个订单可创建');
      await page.getByTestId('confirm').click();
      await expect(page.getByTestId('done')).toContainText('创建成功：1 个订单');
      const batchNo = /B\d+/.exec(await page.getByTestId('done').innerText())![0];

      // The server: a batch of this kind (only the call decides it), holding the one order.
      const [batch, ...more] = await batchOf(request, token, batchNo);
      expect(more).toEqual([]);
      expect(batch).toMatchObject({ templateKind: k.kind, channel: k.channel });
      // (The list masks the recipient's name and phone: the province stands for the row.)
      const orders = await ordersOf(request, token, batchNo);
      expect(orders).toEqual([expect.objectContaining({ orderNo, channel: k.channel, recipientProvince: '北京市' })]);
    });
  }
});
