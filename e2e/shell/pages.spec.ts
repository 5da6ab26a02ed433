import { expect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { loginUI } from '../support/session.ts';

test.describe('frame pages', () => {
  test('home shows real figures: counts by status, 30-day chart, notices, quick links', async ({ page }) => {
    const stats = page.waitForResponse((r) => r.url().endsWith('/api/order/stats'));
    await loginUI(page, 'demo');
    const data = ((await (await stats).json()) as { data: { byStatus: Record<string, number>; last30Days: unknown[] } })
      .data;
    for (const [status, n] of Object.entries(data.byStatus)) {
      await expect(page.locator(`[data-status="${status}"] .ant-statistic-content-value`)).toHaveText(
        n.toLocaleString('en-US'),
      );
    }
    await expect(page.getByTestId('daily-chart').locator('g[data-day]')).toHaveCount(data.last30Days.length);
    await expect(page.locator('.quick-link[data-route="order.createImport"]')).toBeVisible();
  });

  test('seeMore lists announcements and opens one', async ({ page }) => {
    await loginUI(page, 'demo');
    await page.goto(`${MAIN}/home/seeMore`);
    const rows = page.getByTestId('see-more').locator('.ant-table-row');
    await expect(rows.first()).toBeVisible();
    await rows.first().getByRole('button').click();
    await expect(page.locator('.ant-modal .notice-content')).not.toBeEmpty();
    await expect(page).toHaveTitle('进口电商物流 - 系统公告');
  });

  test('frontend log captures failed calls without secrets; filter, export, clear', async ({ page }) => {
    await page.goto(`${MAIN}/home/login`);
    await page.getByTestId('login-name').fill('demo');
    await page.getByTestId('login-password').fill('Secret-Wrong-1');
    await page.getByTestId('login-submit').click();
    await expect(page.locator('.ant-message-error')).toBeVisible();
    await loginUI(page, 'demo');
    await page.evaluate(() => {
      void Promise.reject(new Error('an unhandled test rejection'));
    });
    await page.goto(`${MAIN}/home/log`);
    const log = page.getByTestId('log-page');
    await expect(log.locator('.ant-table-row').filter({ hasText: 'login:' })).toHaveCount(1);
    const stored = await page.evaluate(() => localStorage.getItem('1.21.2-frontend-log') ?? '');
    expect(stored).not.toContain('Secret-Wrong-1');
    expect(stored).toContain('an unhandled test rejection');

    await log.getByRole('textbox').fill('login:');
    await expect(log.locator('.ant-table-row')).toHaveCount(1);
    const download = page.waitForEvent('download');
    await log.getByRole('button', { name: /导\s?出/ }).click();
    expect((await download).suggestedFilename()).toMatch(/^frontend-log-[\d-]+\.json$/);
    await log.getByRole('button', { name: '清空日志' }).click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await expect(log.locator('.ant-table-row')).toHaveCount(0);
  });

  test('hidden redirect route and header menu navigation', async ({ page }) => {
    await loginUI(page, 'demo');
    await page.goto(`${MAIN}/home/redirect/seeMore`);
    await expect(page).toHaveURL(/\/home\/seeMore$/);
    await page.getByTestId('header-menu').getByText('订单管理').hover();
    await page.locator('.ant-menu-submenu-popup:visible').getByText('订单列表', { exact: true }).click();
    await expect(page).toHaveURL(/\/home\/order\/list$/);
  });
});
