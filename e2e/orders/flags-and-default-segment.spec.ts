/**
 * Issue 28 #17, calls served but used by no page: `order/setFlag` (the order detail showed GNS
 * update, push S, push price and whole set read-only) and `order/getDefaultNumber` /
 * `order/setDefaultNumber` (the create page neither proposed nor remembered the number segment).
 */
import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { createOrder } from '../support/orders.ts';
import { api, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

test('order detail: the flags are switches that the server keeps', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ locale: 'zh-CN' });
  const token = await loginByCookie(context, request, 'demo');
  const order = await createOrder(request, token);
  const flags = async () =>
    (await api<{ wholeSet: boolean; pushPrice: boolean }>(request, 'order/order', { id: order.id }, token)).body.data;
  expect(await flags()).toMatchObject({ wholeSet: false, pushPrice: false });
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  await page.goto(`${MAIN}/home/order/info?id=${order.id}`);
  const whole = page.getByTestId('order-flag-wholeSet');
  await expect(whole).toHaveAttribute('aria-checked', 'false');
  await whole.click();
  await expect(whole).toHaveAttribute('aria-checked', 'true');
  await expect.poll(async () => (await flags()).wholeSet).toBe(true);
  expect((await flags()).pushPrice).toBe(false);
  await page.reload();
  await expect(page.getByTestId('order-flag-wholeSet')).toHaveAttribute('aria-checked', 'true');
  await page.getByTestId('order-flag-wholeSet').click();
  await expect.poll(async () => (await flags()).wholeSet).toBe(false);
  expect(errors).toEqual([]);
  await context.close();
});

test('create order: the number segment chosen is proposed again next time', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ locale: 'zh-CN' });
  const token = await loginByCookie(context, request, 'demo');
  // Nothing remembered to start with.
  expect((await api(request, 'order/setDefaultNumber', { channel: 'JP', numberSegmentId: null }, token)).status).toBe(
    200,
  );
  const segments = await api<{ id: number; name: string }[]>(request, 'order/numberSegments', { channel: 'JP' }, token);
  const segment = segments.body.data[0]!;
  expect(segment).toBeDefined();
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  await page.goto(`${MAIN}/home/order/create`);
  const select = page.getByTestId('create-segment');
  await expect(page.getByTestId('create-orderNo')).not.toHaveValue('');
  await expect(select).not.toContainText(segment.name);
  await select.click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: segment.name }).click();
  await expect
    .poll(
      async () =>
        (await api<{ numberSegmentId: number | null }>(request, 'order/getDefaultNumber', { channel: 'JP' }, token))
          .body.data.numberSegmentId,
    )
    .toBe(segment.id);
  await page.reload();
  await expect(page.getByTestId('create-segment')).toContainText(segment.name);
  expect(errors).toEqual([]);
  await context.close();
});
