import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { loginByCookie } from '../support/session.ts';

// The first load of the frame competes with other work on the shared test machine.
const expect = baseExpect.configure({ timeout: 30_000 });

/** Issue 11 #20: a page the user may not open is a 403 inside the frame; an unknown one a 404 there. */
test.describe('403 and 404 inside the frame', () => {
  test('a customer opening scan receiving sees 403 with the header and menu; an unknown address 404', async ({
    page,
    context,
    request,
  }) => {
    await loginByCookie(context, request, 'demo');
    await page.goto(`${MAIN}/home/order/scan`);
    const forbidden = page.getByTestId('forbidden');
    await expect(forbidden).toBeVisible();
    await expect(forbidden).toContainText('403');
    await expect(forbidden).toContainText('没有使用此页面的权限');
    await expect(page.getByTestId('header-menu')).toContainText('订单管理');
    await expect(page.getByTestId('aside')).toBeVisible();
    await expect(page.getByTestId('tab-bar')).toBeVisible();
    await expect(page.getByTestId('not-found')).toHaveCount(0);
    // No tab was opened for it, and the menu still leads on.
    await expect(page.locator('[data-testid="tab"][data-path="/order/scan"]')).toHaveCount(0);
    await page.getByTestId('aside').getByText('首页', { exact: true }).click();
    await expect(page.getByTestId('home')).toBeVisible();
    await expect(page.getByTestId('forbidden')).toHaveCount(0);

    await page.goto(`${MAIN}/home/no/such/page`);
    await expect(page.getByTestId('not-found')).toBeVisible();
    await expect(page.getByTestId('header-menu')).toBeVisible();
    await expect(page.getByTestId('aside')).toBeVisible();
    await expect(page.getByTestId('forbidden')).toHaveCount(0);
    await expect(page).toHaveTitle('进口电商物流 - 404');

    // The operator holds the page: no 403.
    await context.clearCookies();
    await loginByCookie(context, request, 'operator');
    await page.goto(`${MAIN}/home/order/scan`);
    await expect(page.locator('[data-testid="tab"][data-path="/order/scan"]')).toHaveClass(/is-active/);
    await expect(page.getByTestId('forbidden')).toHaveCount(0);
  });
});
