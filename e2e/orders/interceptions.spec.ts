/**
 * Order interception (issue 13): a customer intercepts its order by waybill number, finds it in
 * the interception list (page and filters on the server), sees it intercepted in the order
 * list, and cancels the interception after confirming with a reason. The server checks the
 * rest (apps/server/test/interceptions.test.ts).
 */
import { expect, test, type Page } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { choose, column, createOrder, totalText } from '../support/orders.ts';
import { api, loginByCookie } from '../support/session.ts';

// Six pages and a dozen round trips: past the default 60 s on a loaded machine (two cores, load 12).
test.describe.configure({ timeout: 150_000 });

type Interception = { id: number; orderNo: string; status: string; cancelReason: string | null };
const table = (page: Page) => page.getByTestId('interception-table');

async function filterByNumber(page: Page, number: string) {
  await page.getByTestId('interception-filter-number').fill(number);
  await page.getByTestId('interception-search').click();
}

test('a customer intercepts an order by waybill number, finds it, and cancels it with a reason', async ({
  page,
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'demo');
  const order = await createOrder(request, token);
  const waybillNo = order.waybillNo!;
  const records = async (status?: string) =>
    (
      await api<{ total: number; list: Interception[] }>(
        request,
        'order/list/interception',
        { offset: 0, limit: 20, order: 'desc', number: waybillNo, status },
        token,
      )
    ).body.data;

  // Intercept by waybill number from the form (keyboard: the numbers box has the focus).
  await page.goto(`${MAIN}/home/order/interceptions`);
  await expect(table(page)).toBeVisible();
  await page.getByTestId('interception-create').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('interception-no-type')).toContainText('运单号');
  await dialog.getByTestId('interception-numbers').fill(waybillNo);
  // No reason, nothing sent: the form says what is missing.
  await dialog.getByTestId('interception-submit').click();
  await expect(dialog).toContainText('请填写拦截原因');
  // A modal's OK reads its form through validateForSubmit: spec §8's label too (issue 28 #21).
  await expect(page.locator('.ant-message')).toContainText('表单校验失败，请检查');
  expect((await records()).total).toBe(0);
  await dialog.getByTestId('interception-reason').fill('收件人要求暂缓发货');
  await dialog.getByTestId('interception-reason').press('Enter');
  await expect(dialog.getByTestId('interception-results')).toContainText('已拦截 1 个订单');
  await expect(dialog.getByTestId('interception-results')).toContainText(waybillNo);
  await dialog.getByTestId('interception-submit').click();
  await expect(dialog).toBeHidden();

  // The list: filtered on the server by the number, then by status.
  await filterByNumber(page, waybillNo);
  const row = table(page).locator('.ant-table-row', { hasText: order.orderNo });
  await expect(row).toHaveCount(1);
  await expect(totalText(table(page))).toContainText('1');
  await expect(row.getByTestId('interception-status')).toHaveText('拦截中');
  await expect(await column(table(page), '拦截原因')).toHaveText(['收件人要求暂缓发货']);
  await choose(page, page.getByTestId('interception-filter-status'), '已取消');
  await page.getByTestId('interception-search').click();
  await expect(table(page).locator('.ant-table-row')).toHaveCount(0);
  await choose(page, page.getByTestId('interception-filter-status'), '拦截中');
  await page.getByTestId('interception-search').click();
  await expect(row).toHaveCount(1);

  // The order list shows it intercepted.
  await page.goto(`${MAIN}/home/order/list`);
  await page.getByTestId('list-numbers').fill(order.orderNo);
  await page.getByTestId('list-search').click();
  await expect(await column(page.getByTestId('order-table'), '订单号')).toHaveText([order.orderNo]);
  await expect(await column(page.getByTestId('order-table'), '拦截')).toHaveText(['是']);

  // Cancel: a confirmation that needs a reason.
  await page.goto(`${MAIN}/home/order/interceptions`);
  await filterByNumber(page, waybillNo);
  await expect(row).toHaveCount(1);
  await row.getByTestId('interception-cancel').click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText(`取消订单 ${order.orderNo} 的拦截`);
  await confirm.getByTestId('interception-cancel-confirm').click();
  await expect(confirm).toContainText('请填写取消原因');
  expect((await records('active')).total).toBe(1);
  await confirm.getByTestId('interception-cancel-reason').fill('地址已确认');
  await confirm.getByTestId('interception-cancel-confirm').click();
  await expect(page.locator('.ant-message')).toContainText('已取消拦截');
  await expect(row.getByTestId('interception-status')).toHaveText('已取消');
  await expect(row.getByTestId('interception-cancel')).toHaveCount(0);

  const [done] = (await records('cancelled')).list;
  expect(done).toMatchObject({ orderNo: order.orderNo, status: 'cancelled', cancelReason: '地址已确认' });
  const detail = await api<{ intercepted: boolean; events: { kind: string }[] }>(
    request,
    'order/order',
    { id: order.id },
    token,
  );
  expect(detail.body.data.intercepted).toBe(false);
  expect(detail.body.data.events.map((e) => e.kind)).toEqual(['created', 'intercepted', 'interceptionCancelled']);
});
