import { expect as baseExpect, test, type Page } from '../support/test.ts';
import { MAIN, PASSWORD } from '../servers.ts';
import { fillTemplate, importRow } from '../support/import.ts';
import { listOrders } from '../support/orders.ts';
import { loginByCookie } from '../support/session.ts';

// The first load of the frame competes with other work on the shared test machine.
const expect = baseExpect.configure({ timeout: 30_000 });

async function loginUI(page: Page, name: string) {
  await page.goto(`${MAIN}/home/login`);
  await page.getByTestId('login-name').fill(name);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('home')).toBeVisible();
}

/** Issue 11 #21: one term per thing, labels instead of codes, messages that say what is meant. */
test.describe('words', () => {
  test('the wrong-password toast does not follow the right login onto home', async ({ page }) => {
    await page.goto(`${MAIN}/home/login`);
    await page.getByTestId('login-name').fill('demo');
    await page.getByTestId('login-password').fill('Wrong-Password-1');
    await page.getByTestId('login-submit').click();
    const toast = page.locator('.ant-message-error');
    await expect(toast).toBeVisible();
    await page.getByTestId('login-password').fill(PASSWORD);
    await page.getByTestId('login-submit').click();
    // Gone once the user tries again, well before its own 5 s run out somewhere on home.
    await baseExpect(toast).toHaveCount(0, { timeout: 3000 });
    await expect(page).toHaveURL(/\/home\/index$/);
    await expect(page.getByTestId('home')).toBeVisible();
    await expect(toast).toHaveCount(0);
  });

  test('shipped is one word on home and in the lists; the detail shows labels, not codes', async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(150_000);
    await loginUI(page, 'demo');
    const shippedOnHome = (await page.locator('[data-status="shipped"] .ant-statistic-title').innerText()).trim();
    expect(shippedOnHome).toBe('已发货');

    const token = await loginByCookie(context, request, 'demo');
    const shipped = (await listOrders(request, token, { status: 'shipped', limit: 1 })).list;
    expect(shipped.length).toBe(1);
    await page.goto(`${MAIN}/home/order/info?id=${shipped[0]!.id}`);
    const detail = page.getByTestId('order-detail');
    await expect(detail).toContainText(shippedOnHome);
    const cell = (label: string) =>
      detail
        .locator('.ant-descriptions-item-label')
        .filter({ hasText: new RegExp(`^${label}$`) })
        .locator('xpath=following-sibling::td[1]');
    await expect(cell('订单类型')).toHaveText('普通订单');
    await expect(cell('详细地址')).toHaveText(/^中国 /);
  });

  test('the ID card side is named', async ({ page, context, request }) => {
    await loginByCookie(context, request, 'demo');
    await page.goto(`${MAIN}/home/order/idCard`);
    await expect(page.locator('label', { hasText: '正面或背面' })).toBeVisible();
    await expect(page.locator('label').filter({ hasText: /^面$/ })).toHaveCount(0);
  });

  test('a JPY price with decimals says prices are whole yen', async ({ page, context, request }) => {
    // Reading an upload is slow on the shared test machine.
    test.setTimeout(180_000);
    await loginByCookie(context, request, 'demo');
    await page.goto(`${MAIN}/home/order/createImport`);
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-template').click()]);
    const file = await fillTemplate(await dl.path(), [{ ...importRow(`E2EW${Date.now() % 1e8}`), 'Unit Price': 12.5 }]);
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'orders.xlsx', mimeType: 'application/octet-stream', buffer: file });
    const preview = page.getByTestId('preview');
    await expect(preview).toBeVisible({ timeout: 120_000 });
    await expect(preview).toContainText('JPY 价格须为整数，不能有小数');
    await expect(preview).not.toContainText('最多 0 位小数');
  });
});
