/**
 * Order review as its users click it (issue 12): the customer downloads the order template,
 * fills it and submits it for review, and sees the findings (a JAN not in the catalogue, a
 * price off the declared one); the operator completes the review with remarks; the customer
 * sees the remarks and downloads the result workbook, whose rows hold the findings.
 */
import { readFile } from 'node:fs/promises';
import { eanCheckDigit } from '@console/contract';
import { expect as baseExpect, test, type Browser } from '../support/test.ts';
import ExcelJS from 'exceljs';
import { MAIN } from '../servers.ts';
import { aesApi } from '../support/aes.ts';
import { fillTemplate } from '../support/import.ts';
import { apiLogin, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

async function as(browser: Browser, request: Parameters<typeof loginByCookie>[1], user: string) {
  const context = await browser.newContext();
  const token = await loginByCookie(context, request, user);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return { page, token, errors: watchPageErrors(page), close: () => context.close() };
}

/** demo's seeded catalogue (apps/server/src/seed/items.ts): item 1 approved at 58.00 CNY. */
const demoJan = (i: number) => {
  const d = `4910000000${String(i).padStart(2, '0')}`;
  return d + eanCheckDigit(d);
};
const unknownJan = (() => {
  const d = '499999000077';
  return d + eanCheckDigit(d);
})();

const row = (no: string, jan: string, price: number) => ({
  Channel: 'JP',
  'Order No.': no,
  'Recipient Name': '王伟',
  'Recipient Phone': '13800138000',
  'Recipient ID Card': '110105199001011232',
  Province: '北京市',
  City: '北京市',
  District: '朝阳区',
  Address: '建国路 88 号',
  'Item Name': '洗面奶',
  JAN: jan,
  Quantity: 1,
  'Unit Price': price,
  Currency: 'CNY',
});

test('order review: customer submits → operator completes with remarks → customer downloads the result', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const customer = await as(browser, request, 'demo');
  const operator = await as(browser, request, 'operator');
  const c = customer.page;
  const stamp = String(Date.now() % 1e8);

  // The customer: the template from the create page, filled, submitted.
  await c.goto(`${MAIN}/home/orderReview/create`);
  const [template] = await Promise.all([c.waitForEvent('download'), c.getByTestId('review-template').click()]);
  const filled = await fillTemplate((await template.path())!, [
    row(`E2E-OK-${stamp}`, demoJan(1), 58),
    row(`E2E-PRICE-${stamp}`, demoJan(1), 99),
    row(`E2E-UNKNOWN-${stamp}`, unknownJan, 45),
  ]);
  await c.getByTestId('review-file').locator('input[type=file]').setInputFiles({
    name: 'review.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: filled,
  });
  await c.getByTestId('review-submit').click();
  await expect(c).toHaveURL(/\/orderReview\/info\?id=\d+/);
  const id = Number(new URL(c.url()).searchParams.get('id'));
  const info = c.getByTestId('review-info');
  await expect(info.getByTestId('review-status')).toHaveText('待审核');

  // Findings: the order with the unknown JAN opens to its item, marked "not in catalogue".
  const unknownRow = c.locator(`[data-order-no="E2E-UNKNOWN-${stamp}"]`);
  await expect(unknownRow).toBeVisible();
  await unknownRow.locator('.ant-table-row-expand-icon').click();
  const items = c.getByTestId('review-items').first();
  await expect(items.getByTestId('review-catalogue')).toHaveText('未备案');
  await expect(items.getByText(`JAN ${unknownJan} 不在您的商品库中。`)).toBeVisible();
  // The customer holds no completion button.
  await expect(c.getByTestId('review-complete')).toHaveCount(0);
  // Its item page's tab names the review by its number, as the info page's does.
  const reviewNo = (await c.locator(`[data-testid="tab"][data-path="/orderReview/info?id=${id}"]`).innerText()).match(
    /R\d+/,
  )?.[0];
  expect(reviewNo).toBeTruthy();
  await c.goto(`${MAIN}/home/orderReview/item?id=${id}`);
  await expect(c.locator(`[data-testid="tab"][data-path="/orderReview/item?id=${id}"]`)).toContainText(reviewNo!);
  await c.goto(`${MAIN}/home/orderReview/info?id=${id}`);

  // The operator completes it with remarks.
  const o = operator.page;
  await o.goto(`${MAIN}/home/orderReview/info?id=${id}`);
  await o.getByTestId('review-complete').click();
  await o.getByTestId('review-complete-ok').click();
  await expect(o.getByText('请填写审核备注')).toBeVisible();
  await o.getByTestId('review-remarks-input').fill('E2E-PRICE 单价与申报不符，请修改后发货');
  await o.getByTestId('review-complete-ok').click();
  await expect(o.getByTestId('review-status')).toHaveText('已完成');
  await expect(o.getByTestId('review-complete')).toHaveCount(0);

  // The customer: the list shows it completed (no delete), the detail the remarks; the download.
  await c.goto(`${MAIN}/home/orderReview/list`);
  const listRow = c.locator('[data-review-no]').filter({ hasText: '已完成' }).first();
  await expect(listRow).toBeVisible();
  await c.goto(`${MAIN}/home/orderReview/info?id=${id}`);
  await expect(c.getByTestId('review-remarks')).toHaveText('E2E-PRICE 单价与申报不符，请修改后发货');
  const [result] = await Promise.all([c.waitForEvent('download'), c.getByTestId('review-download').click()]);
  await expect(c.getByTestId('download-progress')).toHaveAttribute('data-phase', 'done');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await readFile((await result.path())!)) as never);
  const ws = wb.worksheets[0]!;
  const header = (ws.getRow(1).values as unknown[]).map(String);
  const col = (name: string) => header.indexOf(name);
  const rows = new Map<string, ExcelJS.Row>();
  ws.eachRow((r, n) => n > 1 && rows.set(String(r.getCell(col('订单号')).value), r));
  expect(rows.size).toBe(3);
  const cell = (no: string, name: string) => String(rows.get(no)?.getCell(col(name)).value ?? '');
  expect(cell(`E2E-OK-${stamp}`, '商品问题')).toBe('');
  expect(cell(`E2E-PRICE-${stamp}`, '商品问题')).toContain('与商品库申报的清关价格 58.00 元不一致');
  expect(cell(`E2E-UNKNOWN-${stamp}`, '商品问题')).toContain('不在您的商品库中');
  expect(cell(`E2E-OK-${stamp}`, '审核备注')).toBe('E2E-PRICE 单价与申报不符，请修改后发货');

  // The server agrees: completed, and demo2 cannot read it.
  const review = await aesApi<{ review: { status: number } }>(request, 'orderReview/orders', { id }, customer.token);
  expect(review.body.data.review.status).toBe(1);
  const other = await aesApi(request, 'orderReview/orders', { id }, await apiLogin(request, 'demo2'));
  expect(other.status).toBe(404);

  expect(customer.errors).toEqual([]);
  expect(operator.errors).toEqual([]);
  await customer.close();
  await operator.close();
});

test('a pending review is deleted from the list after a confirmation: gone from the list and the server', async ({
  page,
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'demo');
  const stamp = String(Date.now() % 1e8);
  await page.goto(`${MAIN}/home/orderReview/create`);
  const [template] = await Promise.all([page.waitForEvent('download'), page.getByTestId('review-template').click()]);
  await page
    .getByTestId('review-file')
    .locator('input[type=file]')
    .setInputFiles({
      name: 'review.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await fillTemplate((await template.path())!, [row(`E2E-DEL-${stamp}`, demoJan(1), 58)]),
    });
  await page.getByTestId('review-submit').click();
  await expect(page).toHaveURL(/\/orderReview\/info\?id=\d+/);
  const id = Number(new URL(page.url()).searchParams.get('id'));
  const read = () =>
    aesApi<{ review: { reviewNo: string; status: number } }>(request, 'orderReview/orders', { id }, token);
  const { reviewNo } = (await read()).body.data.review;

  await page.goto(`${MAIN}/home/orderReview/list`);
  await page.getByTestId('review-filter-no').fill(reviewNo);
  await page.getByTestId('review-search').click();
  const listed = page.getByTestId('review-table').locator(`[data-review-no="${reviewNo}"]`);
  await expect(listed).toHaveCount(1);

  // It asks first, naming the review; cancelling keeps it.
  await listed.getByTestId('review-delete').click();
  const confirm = page.locator('.ant-popconfirm').filter({ visible: true });
  await expect(confirm).toContainText(`确定删除审核单 ${reviewNo}？`);
  await confirm.getByRole('button', { name: /取\s*消/ }).click();
  await expect(confirm).toBeHidden();
  expect((await read()).status).toBe(200);

  // Confirming deletes it: the list no longer shows it, the server no longer has it.
  await listed.getByTestId('review-delete').click();
  await page
    .locator('.ant-popconfirm')
    .filter({ visible: true })
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(page.locator('.ant-message')).toContainText('已删除');
  await expect(listed).toHaveCount(0);
  await expect(page.getByTestId('review-table').locator('.ant-empty')).toBeVisible();
  expect((await read()).status).toBe(404);
});
