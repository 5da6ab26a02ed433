/**
 * Order List columns (issue 5): a column hidden by the user stays hidden after a reload and
 * in another browser, because the choice is saved on the server for that user only.
 */
import { expect, test, type Page } from '@playwright/test';
import { MAIN } from '../servers.ts';
import { api, loginByCookie } from '../support/session.ts';

const headers = (page: Page) => page.getByTestId('order-table').locator('thead th');
const choice = (page: Page, title: string) =>
  page.getByTestId('list-column-choice').getByRole('checkbox', { name: title, exact: true });

test('Order List: a hidden column stays hidden after a reload, saved per user', async ({
  page,
  context,
  request,
  browser,
}) => {
  const token = await loginByCookie(context, request, 'demo2');
  await page.goto(`${MAIN}/home/order/list`);
  await expect(page.getByTestId('order-table').locator('.ant-table-row').first()).toBeVisible();
  await expect(headers(page).filter({ hasText: /^电话$/ })).toHaveCount(1);
  await expect(headers(page).filter({ hasText: /^批次号$/ })).toHaveCount(1);

  // Tabs are saved through the same call: wait for the columns' own save.
  const saved = page.waitForResponse(
    (r) =>
      r.url().endsWith('/api/user/settings/save') &&
      r.status() === 200 &&
      (r.request().postDataJSON() as { key?: string }).key === 'orderColumns',
  );
  await page.getByTestId('list-columns').click();
  await expect(choice(page, '电话')).toBeChecked();
  await choice(page, '电话').uncheck();
  await saved;
  await expect(headers(page).filter({ hasText: /^电话$/ })).toHaveCount(0);
  // The other columns stay.
  await expect(headers(page).filter({ hasText: /^批次号$/ })).toHaveCount(1);
  await expect(headers(page).filter({ hasText: /^收件人$/ })).toHaveCount(1);

  // On the server, for this user.
  const settings = await api<{ orderColumns?: string[] }>(request, 'user/settings', {}, token);
  expect(settings.body.data.orderColumns).toBeDefined();
  expect(settings.body.data.orderColumns).not.toContain('recipientPhone');
  expect(settings.body.data.orderColumns).toContain('batchNo');

  await page.reload();
  await expect(page.getByTestId('order-table').locator('.ant-table-row').first()).toBeVisible();
  await expect(headers(page).filter({ hasText: /^收件人$/ })).toHaveCount(1);
  await expect(headers(page).filter({ hasText: /^电话$/ })).toHaveCount(0);
  await page.getByTestId('list-columns').click();
  await expect(choice(page, '电话')).not.toBeChecked();
  await expect(choice(page, '批次号')).toBeChecked();

  // Another browser of the same user sees the choice; another user keeps every column.
  for (const [user, phoneColumns] of [
    ['demo2', 0],
    ['demo', 1],
  ] as const) {
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await loginByCookie(other, request, user);
    await otherPage.goto(`${MAIN}/home/order/list`);
    await expect(otherPage.getByTestId('order-table').locator('.ant-table-row').first()).toBeVisible();
    await expect(headers(otherPage).filter({ hasText: /^收件人$/ })).toHaveCount(1);
    await expect(headers(otherPage).filter({ hasText: /^电话$/ })).toHaveCount(phoneColumns);
    await other.close();
  }

  // Showing it again brings it back, also after a reload.
  await choice(page, '电话').check();
  await expect(headers(page).filter({ hasText: /^电话$/ })).toHaveCount(1);
  await expect
    .poll(
      async () => (await api<{ orderColumns: string[] }>(request, 'user/settings', {}, token)).body.data.orderColumns,
    )
    .toContain('recipientPhone');
  await page.reload();
  await expect(page.getByTestId('order-table').locator('.ant-table-row').first()).toBeVisible();
  await expect(headers(page).filter({ hasText: /^电话$/ })).toHaveCount(1);
});
