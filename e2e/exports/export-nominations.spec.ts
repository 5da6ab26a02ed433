/**
 * Export nominations as a customer clicks them (issue 13): create one (a wrong corporate number
 * is refused under its field, the right one saves), find it in the list (filter, sort, paging),
 * edit it, choose it on the import page, export the list, change its receive email, and delete
 * it after confirming: refused with the order that still uses it, allowed once that order is gone.
 */
import { corporateNumberCheckDigit } from '@console/contract';
import { expect as baseExpect, test, type APIRequestContext, type Page } from '../support/test.ts';
import ExcelJS from 'exceljs';
import { MAIN } from '../servers.ts';
import { aesApi } from '../support/aes.ts';
import { idCard, unique } from '../support/orders.ts';
import { api, loginByCookie } from '../support/session.ts';
import { choosePageSize, gotoPage, sortBy, watchPageErrors, wrapperOf } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

type Row = { id: number; nameEn: string; nameJa: string; corporateNumber: string; receiveEmail: string };

/** A valid corporate number: the check digit computed over a 12-digit base. */
const corporate = (base12: string) => `${corporateNumberCheckDigit(base12)}${base12}`;

const options = (page: Page) => page.locator('.ant-select-dropdown:visible .ant-select-item-option');

async function listed(request: APIRequestContext, token: string, name: string) {
  const r = await aesApi<{ total: number; list: Row[] }>(
    request,
    'export/list',
    { name, limit: 500, sort: 'nameEn', order: 'asc' },
    token,
  );
  expect(r.status).toBe(200);
  return r.body.data;
}

test('export nominations: create (a wrong corporate number first), list, edit, import select, export, receive email, delete', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(180_000);
  const errors = watchPageErrors(page);
  const token = await loginByCookie(context, request, 'demo');
  const stamp = `E2E${Date.now() % 1e8}`;
  const made: number[] = [];

  // Create: a wrong check digit is said under the field, with the digit it should be.
  await page.goto(`${MAIN}/home/exports/create`);
  const form = page.getByTestId('nomination-create');
  await form.getByTestId('nomination-nameJa').fill(`輸出 ${stamp} 株式会社`);
  await form.getByTestId('nomination-nameEn').fill(`${stamp} Alpha Export K.K.`);
  await form.getByTestId('nomination-corporateNumber').fill('2180301018771');
  await form.getByTestId('nomination-tel').fill('0565-28-2121');
  await form.getByTestId('nomination-addressEn').fill('1 Toyota-cho, Toyota, Aichi');
  await form.getByTestId('nomination-receiveEmail').fill('docs@alpha.example');
  await form.getByTestId('nomination-submit').click();
  await expect(
    form.locator('.ant-form-item-explain-error').filter({ hasText: /法人番号无效.*第一位校验码应为 1/ }),
  ).toBeVisible();
  expect((await listed(request, token, `${stamp} Alpha`)).total).toBe(0);
  // Letters are named as such.
  await form.getByTestId('nomination-corporateNumber').fill('11803O1018771');
  await expect(form.locator('.ant-form-item-explain-error').filter({ hasText: /只能是数字/ })).toBeVisible();
  // The right number saves and the list opens.
  await form.getByTestId('nomination-corporateNumber').fill('1180301018771');
  await expect(form.locator('.ant-form-item-explain-error')).toHaveCount(0);
  await form.getByTestId('nomination-submit').click();
  await expect(page).toHaveURL(/\/home\/exports\/list$/);
  const created = (await listed(request, token, `${stamp} Alpha`)).list[0]!;
  expect(created).toMatchObject({ corporateNumber: '1180301018771', receiveEmail: 'docs@alpha.example' });
  made.push(created.id);

  // The import page's select offers it at once (the import reads the same nominations).
  await page.goto(`${MAIN}/home/order/createImport`);
  await page.getByTestId('export-nomination').click();
  await expect(options(page).filter({ hasText: `輸出 ${stamp} 株式会社 (1180301018771)` })).toHaveCount(1);
  await page.keyboard.press('Escape');

  // Eleven more of this run through the API, so the list has pages to turn and names to sort.
  for (let i = 0; i < 11; i++) {
    const r = await aesApi<Row>(
      request,
      'export/create',
      {
        nameJa: `一括 ${stamp} ${String(i).padStart(2, '0')}`,
        nameEn: `${stamp} Bulk ${String(i).padStart(2, '0')}`,
        corporateNumber: corporate(`0104010${String(10000 + i)}`),
        addressEn: '1-1 Chiyoda, Tokyo',
        tel: '03-0000-0000',
      },
      token,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    made.push(r.body.data.id);
  }

  // The list: filter by name (server-side), page by ten, sort by English name both ways.
  await page.goto(`${MAIN}/home/exports/list`);
  const table = page.getByTestId('nomination-table');
  await page.getByTestId('nomination-filter-name').fill(stamp);
  await page.getByTestId('nomination-search').click();
  await expect(wrapperOf(table).locator('.ant-pagination-total-text')).toHaveText('共 12 条');
  await choosePageSize(page, table, 10);
  await sortBy(table, '英文名称');
  const names = (await listed(request, token, stamp)).list.map((r) => r.nameEn);
  expect(names[0]).toBe(`${stamp} Alpha Export K.K.`);
  const rowNames = () =>
    table.locator('tbody tr.ant-table-row').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-nomination')));
  await expect.poll(rowNames).toEqual(names.slice(0, 10));
  await gotoPage(table, 2);
  await expect.poll(rowNames).toEqual(names.slice(10));
  await sortBy(table, '英文名称');
  await expect.poll(rowNames).toEqual([...names].reverse().slice(0, 10));
  // Filter by the corporate number as well: only the one made on the page.
  await page.getByTestId('nomination-filter-number').fill('1180301018771');
  await page.getByTestId('nomination-search').click();
  await expect.poll(rowNames).toEqual([`${stamp} Alpha Export K.K.`]);

  // Edit it.
  const row = table.locator(`tr[data-nomination="${stamp} Alpha Export K.K."]`);
  await row.getByTestId('nomination-edit').click();
  await expect(page).toHaveURL(/\/home\/exports\/update\?id=\d+$/);
  const edit = page.getByTestId('nomination-update');
  await expect(edit.getByTestId('nomination-nameEn')).toHaveValue(`${stamp} Alpha Export K.K.`);
  await edit.getByTestId('nomination-nameEn').fill(`${stamp} Alpha Trading K.K.`);
  await edit.getByTestId('nomination-idMark').fill('ALP');
  await edit.getByTestId('nomination-submit').click();
  await expect(page).toHaveURL(/\/home\/exports\/list$/);
  await page.getByTestId('nomination-filter-number').fill('');
  await page.getByTestId('nomination-filter-name').fill(`${stamp} Alpha`);
  await page.getByTestId('nomination-search').click();
  await expect.poll(rowNames).toEqual([`${stamp} Alpha Trading K.K.`]);
  await expect(table.locator(`tr[data-nomination="${stamp} Alpha Trading K.K."]`)).toContainText('ALP');

  // Export the list (its filter applied): the workbook holds the edited row.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('nomination-export').click()]);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile((await download.path())!);
  const sheet = wb.worksheets[0]!;
  expect(sheet.rowCount).toBe(2);
  expect(sheet.getRow(1).getCell(4).value).toBe('法人番号');
  expect(sheet.getRow(2).getCell(3).value).toBe(`${stamp} Alpha Trading K.K.`);
  expect(sheet.getRow(2).getCell(4).value).toBe('1180301018771');
  expect(sheet.getRow(2).getCell(7).value).toBe('ALP');

  // Change the receive email: a wrong address is said under the field.
  await page.goto(`${MAIN}/home/exports/updateReceiveEmail?id=${created.id}`);
  const mail = page.getByTestId('nomination-email-page');
  await expect(mail).toContainText('docs@alpha.example');
  await mail.getByTestId('nomination-receiveEmail').fill('not an address');
  await mail.getByTestId('nomination-submit').click();
  await expect(mail.locator('.ant-form-item-explain-error').filter({ hasText: /有效的邮箱地址/ })).toBeVisible();
  await mail.getByTestId('nomination-receiveEmail').fill('export-docs@alpha.example');
  await mail.getByTestId('nomination-submit').click();
  await expect(page).toHaveURL(/\/home\/exports\/list$/);
  await expect(table.locator(`tr[data-nomination="${stamp} Alpha Trading K.K."]`)).toContainText(
    'export-docs@alpha.example',
  );

  // Delete while an order not yet shipped uses it: confirmed, then refused with that order's number.
  const order = await api<{ id: number; orderNo: string }>(
    request,
    'order/createImport',
    {
      channel: 'JP',
      orderNo: unique('E2EN'),
      exportNominationId: created.id,
      recipient: {
        name: '张三丰',
        idCard: idCard(),
        phone: '13812345678',
        province: '浙江省',
        city: '杭州市',
        district: '西湖区',
        address: '文三路100号',
      },
      sender: { name: 'DEMO Trading' },
      items: [{ name: '眼药水', quantity: 1, unitPrice: '1000' }],
    },
    token,
  );
  expect(order.status, JSON.stringify(order.body)).toBe(200);
  const target = table.locator(`tr[data-nomination="${stamp} Alpha Trading K.K."]`);
  await target.getByTestId('nomination-delete').click();
  await page.getByTestId('nomination-delete-ok').click();
  const refusal = page.locator('.ant-modal-confirm');
  await expect(refusal).toContainText('1 个未发货的订单');
  await expect(refusal).toContainText(order.body.data.orderNo);
  await refusal.getByRole('button').click();
  await expect(target).toHaveCount(1);

  // The order goes; now the delete is allowed (after confirming again).
  expect((await api(request, 'order/order/delete', { ids: [order.body.data.id] }, token)).status).toBe(200);
  await target.getByTestId('nomination-delete').click();
  await page.getByTestId('nomination-delete-ok').click();
  await expect(target).toHaveCount(0);
  expect((await listed(request, token, `${stamp} Alpha`)).total).toBe(0);

  // Leave demo's list as the seed made it.
  for (const id of made.filter((id) => id !== created.id)) {
    expect((await aesApi(request, 'export/delete', { id }, token)).status).toBe(200);
  }
  expect(errors).toEqual([]);
});
