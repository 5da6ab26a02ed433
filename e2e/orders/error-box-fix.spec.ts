/**
 * The box-C error fix (issue 28 #16; spec §2 order.updateBoxcError, call order/error/boxcUpdate):
 * no page offered it. An error order of a channel with boxes gets "修正箱号" on the Error Order
 * List: its box and split waybill numbers are corrected; an error about the recipient stays (the
 * page says so and the order stays listed), a carrier's box error is cleared and the order leaves
 * the list. On the SHORT_TTL server, whose orders no other spec relies on; the errors are written
 * into its file (the carrier's side of a box error has no call).
 */
import { expect as baseExpect, test, type APIRequestContext, type Page } from '../support/test.ts';
import { SHORT_TTL, dbFile } from '../servers.ts';
import { withDb } from '../support/db.ts';
import { createOrder } from '../support/orders.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

const setError = (id: number, reason: string) =>
  withDb(dbFile('short-ttl'), (db) =>
    db
      .prepare('UPDATE orders SET error_at = ?, error_reason = ? WHERE id = ?')
      .run(new Date().toISOString(), reason, id),
  );

async function detail(request: APIRequestContext, id: number) {
  // Tokens of this server live 5 s: each API look logs in afresh.
  const token = await apiLogin(request, 'demo', SHORT_TTL);
  const r = await api<{ boxNo: string | null; splitWaybillNo: string | null; errorReason: string | null }>(
    request,
    'order/order',
    { id },
    token,
    SHORT_TTL,
  );
  return r.body.data;
}

async function showOnly(page: Page, orderNo: string) {
  await page.goto(`${SHORT_TTL}/home/order/error`);
  const search = page.getByTestId('error-search').locator('input');
  await search.fill(orderNo);
  await search.press('Enter');
  const row = page.getByTestId('error-table').locator('.ant-table-row', { hasText: orderNo });
  await expect(row).toHaveCount(1);
  return row;
}

test('error orders: fix the box of a boxed-channel order; a recipient error stays, a box error clears', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const order = await createOrder(request, await apiLogin(request, 'demo', SHORT_TTL), {
    channel: 'JP',
    base: SHORT_TTL,
  });
  setError(order.id, JSON.stringify([{ code: 'errorReason.idCardNameMismatch' }]));

  const context = await browser.newContext({ locale: 'zh-CN' });
  await loginByCookie(context, request, 'demo', SHORT_TTL);
  const page = await context.newPage();
  const errors = watchPageErrors(page);

  // The recipient's error: the box is saved, the error stands and the page says why.
  let row = await showOnly(page, order.orderNo);
  await row.getByTestId(`box-fix-${order.orderNo}`).click();
  await expect(page.locator('.ant-modal-title')).toContainText(`修正订单 ${order.orderNo} 的箱号`);
  await page.getByTestId('box-fix-box-no').fill('');
  await page.getByTestId('box-fix-save').click();
  await expect(page.locator('.ant-form-item-explain-error')).toContainText('请填写箱号');
  await page.getByTestId('box-fix-box-no').fill('BOX-E2E-1');
  await page.getByTestId('box-fix-split').fill('SPLIT-E2E-1');
  await page.getByTestId('box-fix-save').click();
  await expect(page.getByText('箱号已保存，但错误原因是收件人信息')).toBeVisible();
  await expect(row).toHaveCount(1);
  expect(await detail(request, order.id)).toMatchObject({ boxNo: 'BOX-E2E-1', splitWaybillNo: 'SPLIT-E2E-1' });

  // A carrier's box error (stored as its sentence): the fix clears it and the order leaves the list.
  setError(order.id, '承运商：箱号与实物不符');
  row = await showOnly(page, order.orderNo);
  await row.getByTestId(`box-fix-${order.orderNo}`).click();
  // The form starts from the order's numbers, under the reason it is to fix (issue 36 #23).
  await expect(page.getByTestId('fix-reason')).toContainText('承运商：箱号与实物不符');
  await expect(page.getByTestId('box-fix-box-no')).toHaveValue('BOX-E2E-1');
  await page.getByTestId('box-fix-box-no').fill('BOX-E2E-2');
  await page.getByTestId('box-fix-save').click();
  await expect(page.getByText('箱号已修正，错误已清除')).toBeVisible();
  await expect(row).toHaveCount(0);
  expect(await detail(request, order.id)).toMatchObject({ boxNo: 'BOX-E2E-2', errorReason: null });
  expect(errors).toEqual([]);
  await context.close();
});
