/**
 * Order List filters (issue 5): status, channel and pasted numbers narrow the rows and the
 * count on the server; what the page shows equals what the API answers for the same filter.
 */
import { expect, test, type Page } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { choose, column, listOrders, totalText } from '../support/orders.ts';
import { loginByCookie } from '../support/session.ts';

const table = (page: Page) => page.getByTestId('order-table');
const count = (page: Page) => totalText(table(page));

test('Order List: filter by status, channel and numbers → the rows and the count change', async ({
  page,
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'demo');
  const all = await listOrders(request, token, {});
  const printed = await listOrders(request, token, { status: 'printed' });
  const ems = await listOrders(request, token, { channel: 'EMS' });
  // The seed gives DEMO orders of every status and channel, so each filter is a real narrowing.
  expect(printed.total).toBeGreaterThan(0);
  expect(printed.total).toBeLessThan(all.total);
  expect(ems.total).toBeGreaterThan(0);
  expect(ems.total).toBeLessThan(all.total);

  await page.goto(`${MAIN}/home/order/list`);
  await expect(count(page)).toHaveText(all.total.toLocaleString('en-US'));
  await expect(await column(table(page), '订单号')).toHaveText(all.list.map((r) => r.orderNo));

  // Status: every row printed, the same rows as the API.
  await choose(page, page.getByTestId('list-status'), '已打印');
  await page.getByTestId('list-search').click();
  await expect(count(page)).toHaveText(String(printed.total));
  await expect(await column(table(page), '订单号')).toHaveText(printed.list.map((r) => r.orderNo));
  const statuses = await (await column(table(page), '状态')).allInnerTexts();
  expect(statuses.length).toBe(Math.min(20, printed.total));
  expect(new Set(statuses)).toEqual(new Set(['已打印']));

  // Status and channel together: the intersection.
  const printedEms = await listOrders(request, token, { status: 'printed', channel: 'EMS' });
  await choose(page, page.getByTestId('list-channel'), 'EMS');
  await page.getByTestId('list-search').click();
  await expect(count(page)).toHaveText(String(printedEms.total));
  await expect(await column(table(page), '订单号')).toHaveText(printedEms.list.map((r) => r.orderNo));

  // Channel alone after a reset.
  await page.getByTestId('list-reset').click();
  await expect(count(page)).toHaveText(all.total.toLocaleString('en-US'));
  await choose(page, page.getByTestId('list-channel'), 'EMS');
  await page.getByTestId('list-search').click();
  await expect(count(page)).toHaveText(String(ems.total));
  await expect(await column(table(page), '订单号')).toHaveText(ems.list.map((r) => r.orderNo));
  const channels = await (await column(table(page), '渠道')).allInnerTexts();
  expect(new Set(channels)).toEqual(new Set(['EMS']));

  // Pasted order numbers: exactly those orders.
  const [a, b] = [all.list[3]!, all.list[7]!];
  await page.getByTestId('list-reset').click();
  await page.getByTestId('list-numbers').fill(`${a.orderNo}\n${b.orderNo}`);
  await page.getByTestId('list-search').click();
  await expect(count(page)).toHaveText('2');
  await expect(await column(table(page), '订单号')).toHaveText([a.orderNo, b.orderNo]);

  // Another number kind: a waybill number finds its order.
  const withWaybill = all.list.find((r) => r.waybillNo)!;
  await choose(page, page.getByTestId('list-noType'), '运单号');
  await page.getByTestId('list-numbers').fill(withWaybill.waybillNo!);
  await page.getByTestId('list-search').click();
  await expect(count(page)).toHaveText('1');
  await expect(await column(table(page), '订单号')).toHaveText([withWaybill.orderNo]);
  await expect(await column(table(page), '运单号')).toHaveText([withWaybill.waybillNo!]);
});
