/**
 * A customer's allowed channels and own number segments as an operator clicks them (issue 17):
 * open a customer, pick its channels, add a segment from the keyboard, see it in the table with
 * what it has left, retire it behind the confirmation, save. A customer of its own, so the demo
 * accounts other specs use keep every channel.
 */
import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

type Segment = { name: string; prefix: string; nextSeq: number; lastSeq: number; remaining: number };
type Customer = { id: number; code: string; channels: string[] };

test('customers: an operator limits a customer’s channels and adds, sees and retires its number segment', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const suffix = Date.now().toString(36).toUpperCase();
  const code = `E2ESEG-${suffix}`;
  const prefix = `S${suffix.slice(-6)}`;
  const segName = `E2E-AU-${suffix}`;

  const token = await apiLogin(request, 'operator');
  const made = await api<Customer>(request, 'admin/customer/create', { code, name: `Segments ${suffix}` }, token);
  expect(made.status).toBe(200);
  const customerId = made.body.data.id;

  const context = await browser.newContext();
  await loginByCookie(context, request, 'operator');
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await page.goto(`${MAIN}/home/system/customers`);
  await page.getByTestId(`customer-edit-${code}`).click();
  const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('customer-segments') });
  await expect(dialog.getByTestId('customer-segments')).toBeVisible();

  // Channels: a multi-select, typed and chosen with Enter.
  await dialog.getByTestId('customer-channels').click();
  for (const c of ['JP', 'AU']) {
    await page.keyboard.type(c);
    await page.keyboard.press('Enter');
  }
  await page.keyboard.press('Escape');

  // A segment, filled from the keyboard; Enter in the last field adds it.
  await dialog.getByTestId('segment-channel').click();
  await page.keyboard.type('AU');
  await page.keyboard.press('Enter');
  await dialog.getByTestId('segment-name').fill(segName);
  await dialog.getByTestId('segment-prefix').fill(prefix.toLowerCase());
  await dialog.getByTestId('segment-first').fill('100');
  await dialog.getByTestId('segment-last').fill('199');
  await dialog.getByTestId('segment-last').press('Enter');

  const row = dialog.getByTestId('segment-table').getByRole('row', { name: new RegExp(segName) });
  await expect(row).toBeVisible();
  await expect(row).toContainText(`${prefix}0000000100 – ${prefix}0000000199`);
  await expect(row.getByRole('cell', { name: '100', exact: true })).toBeVisible();

  // Retire asks first; cancelling leaves it, confirming stops it.
  await row.getByTestId(`segment-retire-${segName}`).click();
  const confirm = page.locator('.ant-popconfirm').filter({ visible: true });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: /取\s*消|Cancel/ }).click();
  let segments = await api<Segment[]>(request, 'admin/customer/segments', { customerId }, token);
  expect(segments.body.data[0]).toMatchObject({ name: segName, prefix, remaining: 100 });

  await row.getByTestId(`segment-retire-${segName}`).click();
  await page
    .locator('.ant-popconfirm')
    .filter({ visible: true })
    .getByRole('button', { name: /停\s*用|Retire/ })
    .click();
  await expect(row.getByText(/已停用|Retired/)).toBeVisible();
  await expect(row.getByTestId(`segment-retire-${segName}`)).toHaveCount(0);
  segments = await api<Segment[]>(request, 'admin/customer/segments', { customerId }, token);
  expect(segments.body.data).toEqual([
    expect.objectContaining({ name: segName, nextSeq: 100, lastSeq: 99, remaining: 0 }),
  ]);

  // Saving the customer keeps the channels picked above.
  await dialog.getByRole('button', { name: /保\s*存|Save/ }).click();
  await expect(dialog).toBeHidden();
  const customerRow = page.getByTestId('admin-customers').getByRole('row', { name: new RegExp(code) });
  await expect(customerRow).toContainText('JP');
  await expect(customerRow).toContainText('AU');
  const list = await api<{ list: Customer[] }>(request, 'admin/customer/list', { keyword: code }, token);
  expect(list.body.data.list.map((c) => [c.code, c.channels])).toEqual([[code, ['JP', 'AU']]]);

  await context.close();
});
