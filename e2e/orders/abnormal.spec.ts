/**
 * Abnormal Order List (issue 5): an order caught by a rule is listed with its reason; an
 * operator resolves it, it leaves the list and the header badge counts one fewer.
 */
import { expect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { createOrder } from '../support/orders.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';

type Detail = { abnormalRule: string | null; abnormalReason: string | null; abnormalAt: string | null };
const abnormalTotal = async (request: Parameters<typeof api>[0], token: string) =>
  (await api<{ total: number }>(request, 'order/abnormal', { offset: 0, limit: 1, order: 'desc' }, token)).body.data
    .total;

test('Abnormal Order List: an operator resolves an order, it leaves the list and the badge drops', async ({
  page,
  context,
  request,
}) => {
  // A landline is not a mainland mobile number: the order is created, but caught by a rule.
  const demo = await apiLogin(request, 'demo');
  const order = await createOrder(request, demo, { phone: '0571-88886666' });
  const caught = await api<Detail>(request, 'order/order', { id: order.id }, demo);
  expect(caught.body.data.abnormalRule).toContain('invalidPhone');
  // Stored as codes, answered in the caller's language (the API helper sends none: English).
  expect(caught.body.data.abnormalReason).toContain('The recipient phone is not a mainland China mobile number.');

  const operator = await loginByCookie(context, request, 'operator');
  const before = await abnormalTotal(request, operator);
  expect(before).toBeGreaterThan(1);

  await page.goto(`${MAIN}/home/order/abnormal`);
  const badge = page.getByTestId('badge-abnormal');
  await expect(badge).toHaveAttribute('data-count', String(before));

  const search = page.getByTestId('abnormal-search').locator('input');
  await search.fill(order.orderNo);
  await search.press('Enter');
  const rows = page.getByTestId('abnormal-table').locator('.ant-table-row');
  await expect(rows).toHaveCount(1);
  const row = rows.filter({ hasText: order.orderNo });
  await expect(row).toContainText('收件人电话不是中国大陆手机号。');

  await expect(page.getByTestId('abnormal-resolve')).toBeDisabled();
  await row.getByRole('checkbox').check();
  await page.getByTestId('abnormal-resolve').click();
  await expect(rows).toHaveCount(0);
  await expect(badge).toHaveAttribute('data-count', String(before - 1));

  // The list without a keyword no longer has it either.
  await search.fill('');
  await search.press('Enter');
  await expect(page.getByTestId('abnormal-table').locator('.ant-table-row').first()).toBeVisible();
  await expect(page.getByTestId('abnormal-table').locator('.ant-table-row', { hasText: order.orderNo })).toHaveCount(0);

  // The data: no longer abnormal, the resolution recorded, the count one fewer.
  const after = await api<Detail & { events: { kind: string }[] }>(request, 'order/order', { id: order.id }, demo);
  expect(after.body.data).toMatchObject({ abnormalRule: null, abnormalReason: null, abnormalAt: null });
  expect(after.body.data.events.map((e) => e.kind)).toContain('abnormalResolved');
  expect(await abnormalTotal(request, operator)).toBe(before - 1);
});
