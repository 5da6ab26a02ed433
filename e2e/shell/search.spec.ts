import { expect, test } from '@playwright/test';
import { loginUI } from '../support/session.ts';

test.describe('search panel and hotkeys', () => {
  test('s opens, focus after 500 ms, fuzzy search in both languages, enter navigates, esc closes', async ({ page }) => {
    await loginUI(page, 'demo');
    await page.keyboard.press('s');
    const panel = page.getByTestId('search-panel');
    await expect(panel).toBeVisible();
    const input = page.getByTestId('search-input');
    await expect(input).not.toBeFocused();
    await expect(input).toBeFocused({ timeout: 2_000 });

    await input.fill('批次');
    await expect(panel.locator('[data-route="order.batchList"]')).toBeVisible();
    await input.fill('err ord');
    await expect(panel.locator('li[data-route]').first()).toHaveAttribute('data-route', 'order.error');
    await input.fill('abnrml');
    await expect(panel.locator('li[data-route]').first()).toHaveAttribute('data-route', 'order.abnormal');
    await input.fill('zzzzqqq');
    await expect(panel).toContainText('没有匹配的页面');

    await input.fill('公告');
    await input.press('Enter');
    await expect(panel).toBeHidden();
    await expect(page).toHaveURL(/\/home\/seeMore$/);

    await page.keyboard.press('s');
    await expect(panel).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
  });

  test('s typed into an input does not open the panel', async ({ page }) => {
    await loginUI(page, 'demo');
    await page.goto('log');
    const filter = page.getByTestId('log-page').getByRole('textbox');
    await filter.fill('');
    await filter.press('s');
    await expect(filter).toHaveValue('s');
    await expect(page.getByTestId('search-panel')).toBeHidden();
  });

  test('hotkeys jump to the seven pages and are listed in the panel', async ({ page }) => {
    await loginUI(page, 'demo');
    await page.keyboard.press('s');
    const hotkeys = page.getByTestId('search-hotkeys');
    for (const label of [
      '商品列表',
      '审核未通过商品列表',
      '批量创建进口订单',
      '批次列表',
      '错误订单列表',
      '异常订单列表',
      '账单',
    ]) {
      await expect(hotkeys).toContainText(label);
    }
    await page.keyboard.press('Escape');
    const expected: [string, RegExp][] = [
      ['Alt+1', /\/item\/list$/],
      ['Alt+2', /\/item\/noPassItem$/],
      ['Alt+3', /\/order\/createImport$/],
      ['Alt+4', /\/order\/batchList$/],
      ['Alt+5', /\/order\/error$/],
      ['Alt+6', /\/order\/abnormal$/],
      ['Alt+7', /\/bill$/],
    ];
    for (const [key, url] of expected) {
      await page.keyboard.press(key);
      await expect(page).toHaveURL(url);
    }
  });
});
