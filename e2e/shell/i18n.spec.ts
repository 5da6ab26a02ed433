import { expect, test, type Request } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { loginUI } from '../support/session.ts';

test.describe('languages', () => {
  test('zh-chs by default; switching to English translates the frame and the header sent', async ({ page }) => {
    await loginUI(page, 'demo');
    await expect(page.getByTestId('header-menu')).toContainText('订单管理');
    await expect(page).toHaveTitle('进口电商物流 - 首页');

    await page.getByTestId('language-switch').click();
    await expect(page.locator('.ant-dropdown:visible').getByRole('menuitem')).toHaveText(['简体中文', 'English']);
    await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: 'English' }).click();
    await expect(page.getByTestId('header-menu')).toContainText('Order Management');
    await expect(page.getByTestId('user-menu')).toContainText('Hello, 演示客户');
    await expect(page.getByTestId('tab').first()).toHaveText('Home');
    await expect(page).toHaveTitle('Import E-commerce Logistics - Home');
    await expect(page.getByTestId('home')).toContainText('Orders by status');

    const sent = page.waitForRequest((r: Request) => r.url().endsWith('/api/notifications'));
    await page.getByRole('link', { name: 'See all' }).click();
    expect((await sent).headers()['accept-language']).toBe('en');
    await expect(page.getByTestId('see-more')).toContainText('System announcements');

    // The choice survives a reload, and zh-chs is sent as zh-CN.
    await page.reload();
    await expect(page.getByTestId('header-menu')).toContainText('Order Management');
    await page.getByTestId('language-switch').click();
    await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: '简体中文' }).click();
    await expect(page.getByTestId('header-menu')).toContainText('订单管理');
    const zh = page.waitForRequest((r: Request) => r.url().endsWith('/api/me'));
    await page.reload();
    expect((await zh).headers()['accept-language']).toBe('zh-CN');
  });

  test('the login page switches language too', async ({ page }) => {
    await page.goto(`${MAIN}/home/login`);
    await expect(page.getByRole('heading')).toHaveText('进口电商物流');
    await page.getByTestId('login-lang-en').click();
    await expect(page.getByRole('heading')).toHaveText('Import E-commerce Logistics');
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-name-error')).toHaveText('Please enter your user name');
    await page.getByTestId('login-lang-zh-chs').click();
  });
});
