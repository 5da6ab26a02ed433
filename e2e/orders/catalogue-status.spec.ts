/**
 * Orders use the catalogue (issue 12): a batch import whose approved JAN shows no warning while
 * an unknown JAN is flagged in the preview, and the order detail shows each item's catalogue
 * status and the tax estimate.
 */
import { expect as baseExpect, test, type Page } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { aesApi } from '../support/aes.ts';
import { fillTemplate, importRow } from '../support/import.ts';
import { createItem, uniqueJan } from '../support/items.ts';
import { idCard } from '../support/orders.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';

// A busy machine (two cores for many browsers) answers slower than the default 10 s allows.
const expect = baseExpect.configure({ timeout: 30_000 });
const run = Date.now().toString(36).toUpperCase();

async function jpTemplate(page: Page) {
  await page.goto(`${MAIN}/home/order/createImport`);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-template').click()]);
  return dl.path();
}

test('an approved JAN is not flagged, an unknown one is; order detail shows status and tax estimate', async ({
  page,
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'demo');
  const operator = await apiLogin(request, 'operator');
  const item = await createItem(request, token, { taxCode: '04010100' });
  const approve = await aesApi(request, 'item/approve', { id: item.id }, operator);
  expect(approve.status, JSON.stringify(approve.body)).toBe(200);
  const unknown = uniqueJan();

  const no = (s: string) => `E2ECAT${run}${s}`;
  const recipient = idCard();
  const rows = [
    { ...importRow(no('OK')), 'Recipient ID Card': recipient, JAN: item.jan, 'Unit Price': 10000 },
    { ...importRow(no('NEW')), 'Box No.': 'B2', 'Recipient ID Card': recipient, JAN: unknown },
    // Issue 36 #22: an item with no JAN has no catalogue data; the row once said 均已备案.
    { ...importRow(no('NOJAN')), 'Box No.': 'B3', 'Recipient ID Card': recipient },
  ];
  const tpl = await jpTemplate(page);
  await page.locator('input[type=file]').setInputFiles({
    name: 'orders.xlsx',
    mimeType: 'application/octet-stream',
    buffer: await fillTemplate(tpl, rows),
  });

  const notes = page.getByTestId('order-notes');
  await expect(notes).toBeVisible();
  await expect(notes).toContainText('1 个商品未备案通过');
  const okRow = page.locator(`[data-order-no="${no('OK')}"]`);
  const newRow = page.locator(`[data-order-no="${no('NEW')}"]`);
  await expect(okRow.getByTestId('catalogue-ok')).toHaveText('均已备案');
  await expect(okRow.getByTestId('catalogue-status')).toHaveCount(0);
  await expect(newRow).toContainText(unknown);
  await expect(newRow.getByTestId('catalogue-status')).toHaveAttribute('data-status', 'unknown');
  await expect(newRow.getByTestId('catalogue-status')).toHaveText('未备案');
  const noJanRow = page.locator(`[data-order-no="${no('NOJAN')}"]`);
  await expect(noJanRow.getByTestId('catalogue-no-jan')).toHaveText('部分商品无 JAN，无法核对备案');
  await expect(noJanRow.getByTestId('catalogue-ok')).toHaveCount(0);
  // JPY 10,000 = CNY 480: import VAT 62.40 at 70 % = 43.68.
  await expect(okRow.getByTestId('tax-estimate')).toHaveText('CNY 43.68');

  // Warnings do not stop the import.
  await page.getByTestId('confirm').click();
  await expect(page.getByTestId('done')).toBeVisible();
  const list = await api<{ list: { id: number; orderNo: string }[] }>(
    request,
    'order/orderList',
    { offset: 0, limit: 10, order: 'desc', numbers: `${no('OK')}\n${no('NEW')}` },
    token,
  );
  const ok = list.body.data.list.find((o) => o.orderNo === no('OK'))!;
  const other = list.body.data.list.find((o) => o.orderNo === no('NEW'))!;

  await page.goto(`${MAIN}/home/order/info?id=${ok.id}`);
  const detail = page.getByTestId('order-detail');
  await expect(detail.getByTestId('tax-estimate-total')).toHaveText('CNY 43.68');
  await expect(detail.getByTestId('tax-estimate')).toContainText('跨境电商零售进口');
  await expect(detail.getByTestId('catalogue-status')).toHaveAttribute('data-status', 'approved');

  await page.goto(`${MAIN}/home/order/info?id=${other.id}`);
  await expect(page.getByTestId('order-detail').getByTestId('catalogue-status')).toHaveAttribute(
    'data-status',
    'unknown',
  );
  // Its item has no approved tax data: the estimate says so.
  await expect(page.getByTestId('order-detail').getByTestId('tax-estimate')).toContainText('缺少其税务数据');
});
