/**
 * Issue 28 #3: the last save no longer wins. Two tabs edit one order; the second save is
 * refused (the form sent the version it was loaded from), the dialog names the field the first
 * tab changed (was → now), and Reload shows that change instead of silently reverting it.
 * Issue 36 #20: keeping my changes keeps only the fields I changed; the rest take the other
 * tab's values (a three-way merge), and the dialog names which is which.
 */
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { api, loginByCookie } from '../support/session.ts';
import { createOrder } from '../support/orders.ts';

type Stored = { recipient: { address: string }; remark: string | null; userRefNo: string | null };

/**
 * One order open in two tabs of one browser, the first tab's address change saved: the state
 * both tests start from. The second tab still holds the version before that save.
 */
async function orderChangedInAnotherTab(context: BrowserContext, request: APIRequestContext) {
  const token = await loginByCookie(context, request, 'demo');
  const order = await createOrder(request, token);
  const [first, second] = [await context.newPage(), await context.newPage()];
  for (const page of [first, second]) {
    await page.goto(`${MAIN}/home/order/update?id=${order.id}`);
    // The first page of a run loads the console cold; on a busy machine that takes a while.
    await expect(page.getByTestId('r-address')).toHaveValue('文三路100号', { timeout: 30_000 });
  }
  await first.getByTestId('r-address').fill('文三路300号');
  await save(first, order.id);
  const stored = async () => (await api<Stored>(request, 'order/order', { id: order.id }, token)).body.data;
  return { order, second, stored };
}

/** Save, and the form leaves for the order's detail page. */
async function save(page: Page, id: number) {
  await page.getByTestId('edit-save').click();
  await expect(page).toHaveURL(new RegExp(`/home/order/info\\?id=${id}$`));
}

test('two tabs edit one order: the stale save shows what changed, Reload shows the other tab’s change', async ({
  context,
  request,
}) => {
  const { order, second, stored } = await orderChangedInAnotherTab(context, request);

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
  expect(await stored()).toMatchObject({ recipient: { address: '文三路300号' }, remark: null });

  await second.getByRole('button', { name: '重新加载（放弃我的修改）' }).click();
  await expect(dialog).toBeHidden();
  await expect(second.getByTestId('r-address')).toHaveValue('文三路300号');
  await expect(second.getByTestId('edit-remark')).toHaveValue('');
  // Saved again from the reloaded version, it lands.
  await second.getByTestId('edit-remark').fill('second tab');
  await save(second, order.id);
  expect(await stored()).toMatchObject({ recipient: { address: '文三路300号' }, remark: 'second tab' });
});

test('keeping my changes on the field the other tab changed too: mine wins, named as changed by both', async ({
  context,
  request,
}) => {
  const { order, second, stored } = await orderChangedInAnotherTab(context, request);

  await second.getByTestId('r-address').fill('文三路400号');
  await second.getByTestId('edit-save').click();
  await expect(second.getByTestId('stale-dialog')).toBeVisible();
  await expect(second.getByTestId('stale-both')).toHaveText(/收件人 · 详细地址/);
  await second.getByRole('button', { name: /^保留我的修改/ }).click();
  await expect(second.getByTestId('r-address')).toHaveValue('文三路400号');
  await save(second, order.id);
  expect((await stored()).recipient.address).toBe('文三路400号');
});

test('keeping my changes keeps only mine: the other tab’s field stays, a field both changed is named and mine wins', async ({
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'demo');
  const order = await createOrder(request, token);
  const [first, second] = [await context.newPage(), await context.newPage()];
  for (const page of [first, second]) {
    await page.goto(`${MAIN}/home/order/update?id=${order.id}`);
    await expect(page.getByTestId('r-address')).toHaveValue('文三路100号', { timeout: 30_000 });
  }
  const refNo = (page: Page) => page.getByLabel('用户参考号', { exact: true });
  // The first tab changes the address and the reference, and saves.
  await first.getByTestId('r-address').fill('文三路300号');
  await refNo(first).fill('REF-FIRST');
  await save(first, order.id);

  // The second tab, opened before, changes the remark and the reference.
  await second.getByTestId('edit-remark').fill('second tab');
  await refNo(second).fill('REF-SECOND');
  await second.getByTestId('edit-save').click();
  const dialog = second.getByTestId('stale-dialog');
  await expect(dialog).toBeVisible();
  // Which fields stay mine, which take the other tab's values, which both changed (by their labels).
  await expect.soft(dialog.getByTestId('stale-mine')).toHaveText(/备注/);
  await expect.soft(dialog.getByTestId('stale-theirs')).toHaveText(/收件人 · 详细地址/);
  await expect.soft(dialog.getByTestId('stale-both')).toHaveText(/用户参考号/);
  await expect.soft(dialog.getByTestId('stale-mine')).not.toHaveText(/详细地址|用户参考号/);

  await second.getByRole('button', { name: /^保留我的修改/ }).click();
  await expect(dialog).toBeHidden();
  await expect(second.getByTestId('r-address')).toHaveValue('文三路300号');
  await expect(second.getByTestId('edit-remark')).toHaveValue('second tab');
  await expect(refNo(second)).toHaveValue('REF-SECOND');
  await save(second, order.id);
  const stored = (await api<Stored>(request, 'order/order', { id: order.id }, token)).body.data;
  expect(stored).toMatchObject({
    recipient: { address: '文三路300号' },
    remark: 'second tab',
    userRefNo: 'REF-SECOND',
  });
});
