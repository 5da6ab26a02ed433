/**
 * Issue 28 #3: the last save no longer wins. Two tabs edit one order; the second save is
 * refused (the form sent the version it was loaded from), the dialog names the field the first
 * tab changed (was → now), and Reload shows that change instead of silently reverting it.
 */
import { expect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { api, loginByCookie } from '../support/session.ts';
import { createOrder } from '../support/orders.ts';

test('two tabs edit one order: the stale save shows what changed, Reload shows the other tab’s change', async ({
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'demo');
  const order = await createOrder(request, token);
  const [first, second] = [await context.newPage(), await context.newPage()];
  for (const page of [first, second]) {
    await page.goto(`${MAIN}/home/order/update?id=${order.id}`);
    // The first page of a run loads the console cold; on a busy machine that takes a while.
    await expect(page.getByTestId('r-address')).toHaveValue('文三路100号', { timeout: 30_000 });
  }

  await first.getByTestId('r-address').fill('文三路300号');
  await first.getByTestId('edit-save').click();
  await expect(first).toHaveURL(new RegExp(`/home/order/info\\?id=${order.id}$`));

  // The second tab changes another field, from the version it was loaded from.
  await second.getByTestId('edit-remark').fill('second tab');
  await second.getByTestId('edit-save').click();
  const dialog = second.getByTestId('stale-dialog');
  await expect(dialog).toBeVisible();
  await expect(second.locator('.ant-modal-confirm-title')).toHaveText('此记录已被他人修改');
  const changes = dialog.getByTestId('stale-change');
  await expect(changes).toHaveCount(1);
  await expect(changes).toContainText('详细地址');
  await expect(changes).toContainText('文三路100号');
  await expect(changes).toContainText('文三路300号');
  // Nothing of the second tab was saved.
  const stored = await api<{ recipient: { address: string }; remark: string | null }>(
    request,
    'order/order',
    { id: order.id },
    token,
  );
  expect(stored.body.data.recipient.address).toBe('文三路300号');
  expect(stored.body.data.remark).toBeNull();

  await second.getByRole('button', { name: '重新加载（放弃我的修改）' }).click();
  await expect(dialog).toBeHidden();
  await expect(second.getByTestId('r-address')).toHaveValue('文三路300号');
  await expect(second.getByTestId('edit-remark')).toHaveValue('');
  // Saved again from the reloaded version, it lands.
  await second.getByTestId('edit-remark').fill('second tab');
  await second.getByTestId('edit-save').click();
  await expect(second).toHaveURL(new RegExp(`/home/order/info\\?id=${order.id}$`));
  const after = await api<{ recipient: { address: string }; remark: string | null }>(
    request,
    'order/order',
    { id: order.id },
    token,
  );
  expect(after.body.data).toMatchObject({ recipient: { address: '文三路300号' }, remark: 'second tab' });
});

test('keeping my values: the next save knowingly overwrites the other tab’s change', async ({ context, request }) => {
  const token = await loginByCookie(context, request, 'demo');
  const order = await createOrder(request, token);
  const [first, second] = [await context.newPage(), await context.newPage()];
  for (const page of [first, second]) {
    await page.goto(`${MAIN}/home/order/update?id=${order.id}`);
    // The first page of a run loads the console cold; on a busy machine that takes a while.
    await expect(page.getByTestId('r-address')).toHaveValue('文三路100号', { timeout: 30_000 });
  }
  await first.getByTestId('r-address').fill('文三路300号');
  await first.getByTestId('edit-save').click();
  await expect(first).toHaveURL(new RegExp(`/home/order/info\\?id=${order.id}$`));

  await second.getByTestId('r-address').fill('文三路400号');
  await second.getByTestId('edit-save').click();
  await expect(second.getByTestId('stale-dialog')).toBeVisible();
  await second.getByRole('button', { name: '保留我的修改（再次保存将覆盖）' }).click();
  await expect(second.getByTestId('r-address')).toHaveValue('文三路400号');
  await second.getByTestId('edit-save').click();
  await expect(second).toHaveURL(new RegExp(`/home/order/info\\?id=${order.id}$`));
  const after = await api<{ recipient: { address: string } }>(request, 'order/order', { id: order.id }, token);
  expect(after.body.data.recipient.address).toBe('文三路400号');
});
