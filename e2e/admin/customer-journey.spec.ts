/**
 * The journey of issue 17, as the people click it: an operator creates a customer and its user
 * from the System menu; the user logs in with the one-time password, must change it before
 * anything else, and imports a batch from the template; the operator stores and ships the
 * batch's orders; the customer's Bill page shows the freight of each order on the open
 * statement, and the statement downloads as an xlsx with those lines and the total.
 */
import { readFile } from 'node:fs/promises';
import { expect as baseExpect, test } from '../support/test.ts';
import ExcelJS from 'exceljs';
import { MAIN } from '../servers.ts';
import { fillTemplate, importRow } from '../support/import.ts';
import { listOrders } from '../support/orders.ts';
import { apiLogin, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });
const SAVE = /保\s*存|Save/;

test('customer journey: operator creates customer and user → password change → import → ship → bill and statement', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const suffix = Date.now().toString(36).toUpperCase();
  const code = `J-${suffix}`;
  const userName = `journey.${suffix.toLowerCase()}`;
  const password = 'Bright-Lantern-42';

  // The operator: a customer, then its user with a one-time password.
  const operatorCtx = await browser.newContext();
  await loginByCookie(operatorCtx, request, 'operator');
  const op = await operatorCtx.newPage();
  op.setDefaultTimeout(30_000);
  const opErrors = watchPageErrors(op);
  await op.goto(`${MAIN}/home/system/customers`);
  await op.getByTestId('customer-new').click();
  await op.getByTestId('customer-code').fill(code);
  await op.getByTestId('customer-name').fill(`Journey ${suffix}`);
  await op.getByRole('dialog').getByRole('button', { name: SAVE }).click();
  await expect(op.getByTestId('admin-customers').getByText(code)).toBeVisible();

  await op.goto(`${MAIN}/home/system/users`);
  await op.getByTestId('user-new').click();
  await op.getByTestId('user-name').fill(userName);
  await op.getByTestId('user-display-name').fill('Journey user');
  await op.getByTestId('user-customer').click();
  await op.keyboard.type(code);
  await op.keyboard.press('Enter');
  await op.getByRole('dialog').getByRole('button', { name: SAVE }).click();
  const otp = (await op.getByTestId('one-time-password').textContent())!.trim();
  expect(otp).toHaveLength(14);

  // The user: the password dialog comes first and cannot be dismissed.
  const userCtx = await browser.newContext({ acceptDownloads: true });
  const up = await userCtx.newPage();
  up.setDefaultTimeout(30_000);
  const upErrors = watchPageErrors(up);
  await up.goto(`${MAIN}/home/login`);
  await up.getByTestId('login-name').fill(userName);
  await up.getByTestId('login-password').fill(otp);
  await up.getByTestId('login-submit').click();
  const dialog = up.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(up.getByTestId('home')).toHaveCount(0);
  await dialog.locator('#old_password').fill(otp);
  await dialog.locator('#password').fill(password);
  await dialog.locator('#confirm').fill(password);
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(up.getByTestId('home')).toBeVisible();
  // The one-time password no longer opens the account; the new one does.
  const stale = await request.post(`${MAIN}/api/login`, { data: { name: userName, password: otp } });
  expect(stale.status()).not.toBe(200);
  const fresh = await request.post(`${MAIN}/api/login`, { data: { name: userName, password } });
  expect(fresh.status()).toBe(200);

  // A new user reads the published notices (and agrees to the one that asks it) before ordering.
  await up.goto(`${MAIN}/home/order/createImport`);
  const gate = up.getByTestId('notices-gate');
  await expect(gate.or(up.getByTestId('download-template'))).toBeVisible();
  for (let i = 0; i < 20 && (await gate.isVisible()); i++) {
    const pending = gate.locator('.ant-list-item', { hasText: /未读|需同意/ }).first();
    if (!(await pending.isVisible())) break;
    await pending.getByRole('button', { name: '阅读' }).click();
    // The footer's one button: "I have read and agree" when the notice asks it, else Close. Reading
    // the last notice that blocked may lift the gate at once, and the dialog goes with it.
    const notice = up.getByRole('dialog');
    const footer = notice.locator('.ant-modal-footer button');
    await expect(footer.or(up.getByTestId('download-template'))).toBeVisible();
    if (await footer.isVisible()) {
      // The gate's list is still reloading when the dialog opens: antd ignores a loading button.
      await expect(footer).not.toHaveClass(/ant-btn-loading/);
      await footer.click();
    }
    await expect(notice).toBeHidden();
  }

  // The user imports two orders from the downloaded template.
  const [template] = await Promise.all([up.waitForEvent('download'), up.getByTestId('download-template').click()]);
  const orderNos = [`JR${suffix}A`, `JR${suffix}B`];
  // A new customer has no earlier order or export nomination to take a default sender from, so
  // its sheet names the sender (an order without any is refused at preview, issue 28 item 5).
  const workbook = await fillTemplate(
    (await template.path())!,
    orderNos.map((no) => ({ ...importRow(no), 'Sender Name': 'Journey Trading' })),
  );
  await up
    .locator('input[type=file]')
    .setInputFiles({ name: 'journey.xlsx', mimeType: 'application/octet-stream', buffer: workbook });
  await expect(up.getByTestId('preview').locator('.ant-table-row')).toHaveCount(2);
  await up.getByTestId('confirm').click();
  await expect(up.getByTestId('done')).toBeVisible();
  await expect(up.getByTestId('done').getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');

  // The operator finds the orders (only this customer has these numbers), stores and ships them.
  const operator = await apiLogin(request, 'operator');
  const found = await listOrders(request, operator, { noType: 'orderNo', numbers: orderNos });
  expect(found.list.map((o) => o.customerCode).sort()).toEqual([code, code]);
  const waybills = found.list.map((o) => o.waybillNo!);
  expect(waybills.every(Boolean)).toBe(true);

  await op.goto(`${MAIN}/home/storageOrder/create`);
  const input = op.getByTestId('storage-input');
  for (const w of waybills) {
    await input.fill(w);
    await input.press('Enter');
  }
  const stored = op.getByTestId('storage-results');
  for (const w of waybills)
    await expect(stored.locator(`[data-code="${w}"]`)).toHaveAttribute('data-outcome', 'received');

  await op.goto(`${MAIN}/home/storageOrder/outBatch`);
  await op.getByTestId('out-batch-paste').fill(waybills.join('\n'));
  await op.getByTestId('out-batch-ship').click();
  await op.locator('.ant-popconfirm .ant-btn-primary').click();
  await expect(op.getByTestId('out-batch-result').locator('.ant-list-item[data-outcome="shipped"]')).toHaveCount(2);

  // The customer's Bill page: this month's open statement with a freight line per order.
  await up.goto(`${MAIN}/home/bill`);
  const table = up.getByTestId('bill-table');
  const row = table.locator('tbody tr[data-period][data-status="open"]');
  await expect(row).toHaveCount(1);
  const period = (await row.getAttribute('data-period'))!;
  expect(period).toMatch(/^\d{4}-\d{2}$/);
  // Its total is the chart's bar of that month, and not zero.
  const bar = up.getByTestId('bill-chart').locator(`g[data-period="${period}"]`);
  const total = (await bar.getAttribute('data-total'))!;
  expect(Number(total)).toBeGreaterThan(0);
  await expect(row).toContainText(total);

  await row.getByText(period).click();
  const lines = up.getByTestId('bill-lines');
  for (const no of orderNos) await expect(lines.locator('tr[data-kind="freight"]', { hasText: no })).toBeVisible();
  await up.keyboard.press('Escape');

  const [download] = await Promise.all([up.waitForEvent('download'), row.getByTestId('bill-download').click()]);
  expect(download.suggestedFilename()).toBe(`账单-${code}-${period}.xlsx`);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await readFile((await download.path())!)) as never);
  const cells: string[] = [];
  wb.worksheets[0]!.eachRow((r) => cells.push(r.values ? (r.values as unknown[]).join('|') : ''));
  for (const no of orderNos) expect(cells.some((c) => c.includes(no) && c.includes('运费'))).toBe(true);
  expect(cells.at(-1)).toContain(total);

  expect(opErrors).toEqual([]);
  expect(upErrors).toEqual([]);
  await operatorCtx.close();
  await userCtx.close();
});
