/**
 * Issue 28 #10, "请输入orderNo": a form's message names the field, never its key. The create
 * page's order number sits in a compact group without a label of its own (a `noStyle` item);
 * antd names it by the group's label, which apps/web/test/form-rule-labels.test.ts relies on.
 */
import { expect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { loginByCookie } from '../support/session.ts';

test('an empty order number on the create page says 请输入订单号, not the key', async ({ page, context, request }) => {
  await loginByCookie(context, request, 'demo');
  await page.goto(`${MAIN}/home/order/create`);
  const orderNo = page.getByTestId('create-orderNo');
  // A fresh number is filled in on load: wait for it, then empty the field.
  await expect(orderNo).not.toHaveValue('', { timeout: 20_000 });
  await orderNo.fill('');
  await page.getByTestId('create-submit').click();
  const explain = page.locator('.ant-form-item-explain-error', { hasText: '订单号' });
  await expect(explain.first()).toHaveText('请输入订单号');
  await expect(page.locator('.ant-form-item-explain-error', { hasText: 'orderNo' })).toHaveCount(0);
});
