import { expect, test } from '../support/test.ts';
import { SHORT_TTL, dbFile } from '../servers.ts';
import { ensureErrorOrders, revokePermission } from '../support/db.ts';
import { loginUI } from '../support/session.ts';

test.describe('order badges', () => {
  test('with permission: counts loaded, capped at 999, click opens the list', async ({ page }) => {
    const total = ensureErrorOrders(dbFile('short-ttl'), 'demo', 1005);
    expect(total).toBeGreaterThanOrEqual(1000);
    const counts = page.waitForResponse((r) => r.url().endsWith('/api/order/error') && r.status() === 200);
    await loginUI(page, 'demo', { base: SHORT_TTL });
    const res = await counts;
    expect(res.request().postDataJSON()).toEqual({ offset: 0, limit: 1, order: 'desc' });
    expect(((await res.json()) as { data: { total: number } }).data.total).toBe(total);

    const error = page.getByTestId('badge-error');
    await expect(error).toHaveAttribute('data-count', String(total));
    await expect(error.locator('.ant-badge-count')).toHaveText('999+');
    const abnormal = page.getByTestId('badge-abnormal');
    await expect(abnormal).toHaveAttribute('data-count', /^[1-9]\d*$/);
    const n = Number(await abnormal.getAttribute('data-count'));
    expect(n).toBeLessThan(999);
    await expect(abnormal.locator('.ant-badge-count')).toHaveAttribute('title', String(n));

    await error.getByRole('button').click();
    await expect(page).toHaveURL(/\/home\/order\/error$/);
    await abnormal.getByRole('button').click();
    await expect(page).toHaveURL(/\/home\/order\/abnormal$/);
  });

  test('without permission: no badge and no count call', async ({ page }) => {
    revokePermission(dbFile('short-ttl'), 'agent', ['order.error', 'order.abnormal']);
    const calls: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/order\/(error|abnormal)$/.test(r.url())) calls.push(r.url());
    });
    await loginUI(page, 'agent', { base: SHORT_TTL });
    await expect(page.getByTestId('status-counts')).toBeVisible();
    await expect(page.getByTestId('badge-error')).toHaveCount(0);
    await expect(page.getByTestId('badge-abnormal')).toHaveCount(0);
    // The routes are gone from the menu and the search too, and their URL is a 403 inside the layout.
    await page.keyboard.press('s');
    await page.getByTestId('search-input').fill('错误订单');
    await expect(page.getByTestId('search-panel').locator('[data-route="order.error"]')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.goto(`${SHORT_TTL}/home/order/error`);
    await expect(page.getByTestId('forbidden')).toBeVisible();
    expect(calls).toEqual([]);
  });
});
