/**
 * The single-create form's JAN look-up (`order/getItemByJan`, issue 28 item 25): a customer types
 * the JAN of an item its catalogue holds approved and leaves the box; the item's name, brand, spec
 * and declared price fill the row, and the order saved holds them.
 */
import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { aesApi } from '../support/aes.ts';
import { createItem } from '../support/items.ts';
import { idCard, unique } from '../support/orders.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';

// A busy machine (two cores for many browsers) answers slower than the default 10 s allows.
const expect = baseExpect.configure({ timeout: 30_000 });

test('a JAN of an approved catalogue item fills the item row; the saved order holds it', async ({
  page,
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'demo');
  // An item of this run (brand 1 is 资生堂 in the reference data), approved by an operator: the
  // catalogue answers only for approved items.
  const name = unique('JAN商品');
  const item = await createItem(request, token, { nameZh: name, brandId: 1, specs: '50ml', declarationPrice: '760' });
  const approved = await aesApi(request, 'item/approve', { id: item.id }, await apiLogin(request, 'operator'));
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);

  await page.goto(`${MAIN}/home/order/create`);
  // The form is ready once its fresh order number is in.
  await expect(page.getByTestId('create-orderNo')).not.toHaveValue('');
  await expect(page.getByTestId('item-name-0')).toHaveValue('');
  await page.getByTestId('item-jan-0').fill(item.jan);
  await page.getByTestId('item-jan-0').press('Tab');
  await expect(page.getByTestId('item-name-0')).toHaveValue(name);
  await expect(page.getByTestId('item-brand-0')).toHaveValue('资生堂');
  await expect(page.getByTestId('item-spec-0')).toHaveValue('50ml');
  await expect(page.getByTestId('item-price-0')).toHaveValue(/^760(\.0+)?$/);

  await page.getByTestId('paste-address').fill('王小明 13912345678 广东省深圳市南山区科技园科苑路15号');
  await page.getByTestId('resolve-address').click();
  await expect(page.getByTestId('r-division')).toContainText('广东省 / 深圳市 / 南山区');
  await page.getByTestId('r-idCard').fill(idCard());
  const orderNo = unique('JAN');
  await page.getByTestId('create-orderNo').fill(orderNo);
  await page.getByTestId('create-submit').click();
  await expect(page.locator('.ant-notification')).toContainText(`订单已创建：${orderNo}`);

  // The server holds the item as the look-up filled it.
  const list = await api<{ list: { id: number }[] }>(
    request,
    'order/orderList',
    { offset: 0, limit: 10, order: 'desc', noType: 'orderNo', numbers: orderNo },
    token,
  );
  const [order] = list.body.data.list;
  const detail = await api<{ items: { jan: string; name: string; brand: string; spec: string; unitPrice: string }[] }>(
    request,
    'order/order',
    { id: order!.id },
    token,
  );
  expect(detail.body.data.items).toEqual([
    expect.objectContaining({
      jan: item.jan,
      name,
      brand: '资生堂',
      spec: '50ml',
      unitPrice: expect.stringMatching(/^760(\.0+)?$/),
    }),
  ]);
});
