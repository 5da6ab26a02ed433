/**
 * Order List columns (issue 5): a column hidden by the user stays hidden after a reload and
 * in another browser, because the choice is saved on the server for that user only.
 */
import { expect, test, type BrowserContext, type Page } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { api, loginByCookie } from '../support/session.ts';

const headers = (page: Page) => page.getByTestId('order-table').locator('thead th');
const choice = (page: Page, title: string) =>
  page.getByTestId('list-column-choice').getByRole('checkbox', { name: title, exact: true });

/**
 * Records every header the order table ever shows from the next navigation on: a
 * MutationObserver's callback runs before the browser can paint, so a column drawn and
 * taken away again (the defaults before the saved choice arrives) is caught.
 */
const recordHeaders = (target: Page | BrowserContext) =>
  target.addInitScript(() => {
    const seen = new Set<string>();
    (window as unknown as { seenHeaders: Set<string> }).seenHeaders = seen;
    new MutationObserver(() => {
      for (const th of document.querySelectorAll('[data-testid="order-table"] thead th'))
        seen.add((th.textContent ?? '').trim());
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
const seenHeaders = (page: Page) =>
  page.evaluate(() => [...(window as unknown as { seenHeaders: Set<string> }).seenHeaders]);

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
  // A click, then wait for the box to clear: the checkbox is controlled by the saved settings,
  // whose change reaches the page a tick after the click (the query cache notifies by timer),
  // and uncheck() reads the state at once.
  await choice(page, '电话').click();
  await expect(choice(page, '电话')).not.toBeChecked();
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

  await recordHeaders(page);
  await page.reload();
  // Right after the navigation, before any data: the hidden column is not there...
  await expect(headers(page).filter({ hasText: /^电话$/ })).toHaveCount(0);
  await expect(page.getByTestId('order-table').locator('.ant-table-row').first()).toBeVisible();
  await expect(headers(page).filter({ hasText: /^收件人$/ })).toHaveCount(1);
  await expect(headers(page).filter({ hasText: /^电话$/ })).toHaveCount(0);
  // ...and it never was, not even for a moment while the saved choice was loading.
  const seen = await seenHeaders(page);
  expect(seen).toContain('收件人');
  expect(seen).not.toContain('电话');
  await page.getByTestId('list-columns').click();
  await expect(choice(page, '电话')).not.toBeChecked();
  await expect(choice(page, '批次号')).toBeChecked();

  // Another browser of the same user sees the choice; another user keeps every column.
  for (const [user, phoneColumns] of [
    ['demo2', 0],
    ['demo', 1],
  ] as const) {
    const other = await browser.newContext();
    await recordHeaders(other);
    const otherPage = await other.newPage();
    await loginByCookie(other, request, user);
    await otherPage.goto(`${MAIN}/home/order/list`);
    await expect(otherPage.getByTestId('order-table').locator('.ant-table-row').first()).toBeVisible();
    await expect(headers(otherPage).filter({ hasText: /^收件人$/ })).toHaveCount(1);
    await expect(headers(otherPage).filter({ hasText: /^电话$/ })).toHaveCount(phoneColumns);
    expect((await seenHeaders(otherPage)).includes('电话')).toBe(phoneColumns === 1);
    await other.close();
  }

  // Showing it again brings it back, also after a reload.
  await choice(page, '电话').click();
  await expect(choice(page, '电话')).toBeChecked();
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
