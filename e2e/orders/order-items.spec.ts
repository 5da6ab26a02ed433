/**
 * Order items page (issue 11 #15): reached from the order detail; add, change and remove an
 * item and see the order's items change; a received order's items cannot be changed.
 */
import { expect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { createOrder } from '../support/orders.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';

type Item = { id: number; lineNo: number; name: string; quantity: number; unitPrice: string };

test('add, change and remove an item of an order from its items page', async ({ page, context, request }) => {
  const token = await loginByCookie(context, request, 'demo');
  const o = await createOrder(request, token);
  const items = async () => (await api<Item[]>(request, 'order/items', { orderId: o.id }, token)).body.data;

  await page.goto(`${MAIN}/home/order/info?id=${o.id}`);
  await page.getByTestId('detail-items').click();
  await expect(page).toHaveURL(new RegExp(`/home/order/items\\?id=${o.id}$`));
  const table = page.getByTestId('order-items');
  await expect(table.locator('.ant-table-row')).toHaveCount(1);

  await page.getByTestId('item-add').click();
  const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('item-form') });
  await dialog.getByTestId('item-name').fill('保湿面霜');
  await dialog.getByTestId('item-quantity').fill('2');
  await dialog.getByTestId('item-unitPrice').fill('2500');
  await dialog.getByRole('button', { name: /保\s?存/ }).click();
  await expect(table.locator('.ant-table-row')).toHaveCount(2);
  await expect(table.locator('.ant-table-row').nth(1)).toContainText('保湿面霜');
  expect((await items()).map((i) => [i.name, i.quantity, i.unitPrice])).toEqual([
    ['眼药水', 1, '1000'],
    ['保湿面霜', 2, '2500'],
  ]);

  await page.getByTestId('item-edit-2').click();
  await expect(dialog.getByTestId('item-name')).toHaveValue('保湿面霜');
  await dialog.getByTestId('item-quantity').fill('3');
  await dialog.getByRole('button', { name: /保\s?存/ }).click();
  await expect(table.locator('.ant-table-row').nth(1)).toContainText('3');
  expect((await items())[1]).toMatchObject({ name: '保湿面霜', quantity: 3 });

  await page.getByTestId('item-delete-2').click();
  await page.locator('.ant-popconfirm .ant-btn-primary').click();
  await expect(table.locator('.ant-table-row')).toHaveCount(1);
  expect((await items()).map((i) => i.name)).toEqual(['眼药水']);

  // The last item cannot be removed: the confirmation says so and offers no OK.
  await page.getByTestId('item-delete-1').click();
  await expect(page.locator('.ant-popconfirm')).toContainText('至少保留一个商品');
  await expect(page.locator('.ant-popconfirm .ant-btn-primary')).toBeDisabled();
});

test('a received order shows why its items cannot change, and offers no change', async ({ page, context, request }) => {
  const token = await loginByCookie(context, request, 'demo');
  const o = await createOrder(request, token);
  const operator = await apiLogin(request, 'operator');
  expect(
    (await api<{ outcome: string }>(request, 'order/orderScan', { code: o.waybillNo }, operator)).body.data.outcome,
  ).toBe('received');
  await page.goto(`${MAIN}/home/order/items?id=${o.id}`);
  await expect(page.getByTestId('order-items').locator('.ant-alert')).toContainText('已入库收货');
  await expect(page.getByTestId('item-add')).toBeDisabled();
  await expect(page.getByTestId('item-edit-1')).toBeDisabled();
  await expect(page.getByTestId('item-delete-1')).toBeDisabled();
  expect((await api<Item[]>(request, 'order/items', { orderId: o.id }, token)).body.data).toHaveLength(1);
});
