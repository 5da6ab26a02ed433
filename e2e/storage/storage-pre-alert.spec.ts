/**
 * Issue 26, finding 1, as the console shows it: a customer's entry is a pre-alert (the hint says
 * so, the line is "pre-alerted", nothing is received); after the warehouse's scan the storage
 * order's orders show the declared weight beside the measured one; an operator re-weighs a
 * received order from the lines (a weight out of range answered on its field, then a good one
 * confirmed and shown as measured).
 */
import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { aesApi } from '../support/aes.ts';
import { createOrder } from '../support/orders.ts';
import { apiLogin, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

test('pre-alert by the customer, declared beside measured, re-weigh by the operator', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const demo = await apiLogin(request, 'demo');
  const operator = await apiLogin(request, 'operator');
  const a = await createOrder(request, demo);

  // The customer pre-alerts its parcel at 1 g.
  const customer = await browser.newContext();
  await loginByCookie(customer, request, 'demo');
  const cpage = await customer.newPage();
  cpage.setDefaultTimeout(30_000);
  const cerrors = watchPageErrors(cpage);
  await cpage.goto(`${MAIN}/home/storageOrder/create`);
  await expect(cpage.getByTestId('storage-pre-alert-hint')).toBeVisible();
  // Issue 36 #22: the entry's hint said Enter stores the parcel (回车即入库); a customer's Enter pre-alerts it.
  await expect(cpage.getByTestId('storage-entry-hint')).toContainText('回车即预报');
  const weight = cpage.getByTestId('storage-weight').locator('xpath=descendant-or-self::input');
  await weight.fill('1');
  const waybill = cpage.getByTestId('storage-input');
  await waybill.fill(a.waybillNo!);
  await waybill.press('Enter');
  await expect(cpage.getByTestId('storage-results').locator(`[data-code="${a.waybillNo}"]`)).toHaveAttribute(
    'data-outcome',
    'preAlerted',
  );
  await expect(cpage.getByTestId('storage-count')).toHaveText(/1\D+0/);
  await cpage.getByTestId('storage-created-no').click();
  await expect(cpage.getByTestId('storage-kind')).toHaveAttribute('data-pre-alert', 'true');

  // The warehouse scans it at 20 kg.
  const scan = await aesApi<{ lines: { outcome: string }[]; storageOrder: { id: number } }>(
    request,
    'storageOrder/create',
    { waybillNos: [a.waybillNo!], grossWeightsG: [20_000] },
    operator,
  );
  expect(scan.body.data.lines[0]!.outcome).toBe('received');

  // The customer's pre-alert shows its declared 1 g beside the measured 20,000 g.
  await cpage.getByTestId('storage-open-orders').click();
  const cline = cpage.getByTestId('storage-item-page').locator(`tr[data-code="${a.waybillNo}"]`);
  await expect(cline.getByTestId('line-declared')).toHaveText('1');
  await expect(cline.getByTestId('line-measured')).toHaveText('20000');
  // Customers do not re-weigh.
  await expect(cline.getByTestId('line-reweigh')).toHaveCount(0);
  expect(cerrors).toEqual([]);
  await customer.close();

  // The operator re-weighs from the warehouse's storage order.
  const context = await browser.newContext();
  await loginByCookie(context, request, 'operator');
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const errors = watchPageErrors(page);
  await page.goto(`${MAIN}/home/storageOrder/item?id=${scan.body.data.storageOrder.id}`);
  const line = page.getByTestId('storage-item-page').locator(`tr[data-code="${a.waybillNo}"]`);
  await expect(line.getByTestId('line-declared')).toHaveText('1');
  await line.getByTestId('line-reweigh').click();
  const form = page.getByTestId('reweigh-form');
  await form.getByTestId('reweigh-weight').fill('100001');
  await form.getByTestId('reweigh-reason').fill('scale error');
  await page.getByTestId('reweigh-submit').click();
  await page.getByTestId('reweigh-confirm').click();
  // The server's 422 on the weight field.
  await expect(form.locator('.ant-form-item-explain-error')).toBeVisible();
  await expect(line.getByTestId('line-measured')).toHaveText('20000');
  await form.getByTestId('reweigh-weight').fill('19000');
  await page.getByTestId('reweigh-submit').click();
  await expect(page.locator('.ant-modal-confirm')).toContainText('19000');
  await page.getByTestId('reweigh-confirm').click();
  await expect(form).toBeHidden();
  await expect(line.getByTestId('line-measured')).toHaveText('19000');
  await expect(line.getByTestId('line-declared')).toHaveText('1');
  expect(errors).toEqual([]);
  await context.close();
});
