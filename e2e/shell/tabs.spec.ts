import { expect, test, type Page } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { loginByCookie, loginUI, settingSaved, tabPaths } from '../support/session.ts';

const tab = (page: Page, path: string) => page.locator(`[data-testid="tab"][data-path="${path}"]`);

async function openViaUrl(page: Page, paths: string[]) {
  for (const p of paths) {
    await page.goto(`${MAIN}/home${p}`);
    await expect(tab(page, p)).toHaveClass(/is-active/);
  }
}

/** Tabs follow the user across runs of a spec (server-side settings): start each test from home only. */
async function closeAllTabs(page: Page) {
  await tab(page, '/index').click({ button: 'right' });
  await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: '全部关闭' }).click();
  await expect(page.getByTestId('tab')).toHaveCount(1);
}

async function contextAction(page: Page, path: string, label: string) {
  await tab(page, path).click({ button: 'right' });
  await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: label }).click();
}

test.describe('multi-tab bar', () => {
  test('open, close, close left/right/others/all, dropdown, home not closable', async ({ page }) => {
    await loginUI(page, 'demo');
    await closeAllTabs(page);
    await openViaUrl(page, ['/seeMore', '/log', '/bill', '/item/list', '/order/list']);
    expect(await tabPaths(page)).toEqual(['/index', '/seeMore', '/log', '/bill', '/item/list', '/order/list']);
    await expect(tab(page, '/index').getByTestId('tab-close')).toHaveCount(0);

    await tab(page, '/log').getByTestId('tab-close').click();
    expect(await tabPaths(page)).toEqual(['/index', '/seeMore', '/bill', '/item/list', '/order/list']);

    await contextAction(page, '/bill', '关闭左侧');
    expect(await tabPaths(page)).toEqual(['/index', '/bill', '/item/list', '/order/list']);
    await expect(page).toHaveURL(/\/order\/list$/);

    await contextAction(page, '/bill', '关闭右侧');
    expect(await tabPaths(page)).toEqual(['/index', '/bill']);
    // The active tab was closed: its left neighbour becomes active.
    await expect(page).toHaveURL(/\/bill$/);

    await openViaUrl(page, ['/seeMore', '/log']);
    await contextAction(page, '/seeMore', '关闭其它');
    expect(await tabPaths(page)).toEqual(['/index', '/seeMore']);
    await expect(page).toHaveURL(/\/seeMore$/);

    // Home's menu has close all only.
    await tab(page, '/index').click({ button: 'right' });
    const homeMenu = page.locator('.ant-dropdown:visible').getByRole('menuitem');
    await expect(homeMenu).toHaveText(['全部关闭']);
    await homeMenu.click();
    expect(await tabPaths(page)).toEqual(['/index']);
    await expect(page).toHaveURL(/\/index$/);

    // The dropdown acts on the active tab.
    await openViaUrl(page, ['/seeMore', '/log', '/bill']);
    await tab(page, '/log').click();
    await page.getByTestId('tabs-dropdown').click();
    await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: '关闭右侧' }).click();
    expect(await tabPaths(page)).toEqual(['/index', '/seeMore', '/log']);
    await page.getByTestId('tabs-dropdown').click();
    await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: '关闭左侧' }).click();
    expect(await tabPaths(page)).toEqual(['/index', '/log']);
    await page.getByTestId('tabs-dropdown').click();
    await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: '全部关闭' }).click();
    expect(await tabPaths(page)).toEqual(['/index']);
  });

  test('drag to reorder; order restored after reload and from the server in another browser', async ({
    page,
    browser,
    request,
  }) => {
    await loginUI(page, 'agent');
    await closeAllTabs(page);
    await openViaUrl(page, ['/seeMore', '/log', '/bill']);
    await tab(page, '/bill').dragTo(tab(page, '/seeMore'));
    expect(await tabPaths(page)).toEqual(['/index', '/bill', '/seeMore', '/log']);
    const saved = settingSaved(
      page,
      'tabs',
      (v) => JSON.stringify(v) === JSON.stringify(['/index', '/seeMore', '/log', '/bill']),
    );
    await tab(page, '/bill').dragTo(tab(page, '/log'));
    expect(await tabPaths(page)).toEqual(['/index', '/seeMore', '/log', '/bill']);
    // Home stays first.
    await tab(page, '/log').dragTo(tab(page, '/index'));
    expect(await tabPaths(page)).toEqual(['/index', '/seeMore', '/log', '/bill']);

    // The debounced save answered, not a fixed pause: then a reload, and a fresh browser context for the same user.
    await saved;
    await page.reload();
    await expect(tab(page, '/bill')).toBeVisible();
    expect(await tabPaths(page)).toEqual(['/index', '/seeMore', '/log', '/bill']);

    const other = await browser.newContext();
    const page2 = await other.newPage();
    await loginByCookie(other, request, 'agent');
    await page2.goto(`${MAIN}/home/index`);
    await expect(page2.getByTestId('home')).toBeVisible();
    expect(await tabPaths(page2)).toEqual(['/index', '/seeMore', '/log', '/bill']);
    await other.close();
  });

  test('tabs are separate per user', async ({ page, context }) => {
    await loginUI(page, 'demo2');
    await closeAllTabs(page);
    await context.clearCookies();
    await loginUI(page, 'demo');
    await closeAllTabs(page);
    // Tabs reach the server a moment after they change: wait for demo's last change to land
    // before the next user logs in here (a switch sooner leaves two saves of demo's racing).
    const billSaved = page.waitForResponse(
      (r) =>
        r.url().endsWith('/api/user/settings/save') &&
        r.status() === 200 &&
        JSON.stringify(r.request().postDataJSON()).includes('/bill'),
    );
    await openViaUrl(page, ['/seeMore', '/bill']);
    await billSaved;
    await context.clearCookies();
    await loginUI(page, 'demo2');
    expect(await tabPaths(page)).toEqual(['/index']);
    await openViaUrl(page, ['/log']);
    await context.clearCookies();
    await loginUI(page, 'demo');
    expect(await tabPaths(page)).toEqual(['/index', '/seeMore', '/bill']);
  });

  test('a hidden tab keeps its state; refresh remounts only that tab', async ({ page }) => {
    await loginUI(page, 'demo');
    await closeAllTabs(page);
    await openViaUrl(page, ['/seeMore', '/log']);
    const filter = page.getByTestId('log-page').getByPlaceholder('筛选信息、页面或用户');
    await filter.fill('kept while hidden');
    await tab(page, '/seeMore').click();
    await page.getByTestId('see-more').getByPlaceholder('搜索公告标题或内容').fill('see-more state');
    await expect(page.getByTestId('log-page')).toBeHidden();
    await tab(page, '/log').click();
    await expect(filter).toHaveValue('kept while hidden');

    await contextAction(page, '/log', '刷新');
    await expect(page.getByTestId('log-page').getByPlaceholder('筛选信息、页面或用户')).toHaveValue('');
    // The other tab was not remounted.
    await tab(page, '/seeMore').click();
    await expect(page.getByTestId('see-more').getByPlaceholder('搜索公告标题或内容')).toHaveValue('see-more state');

    // The hidden /refresh route remounts the current tab too.
    await page.goto(`${MAIN}/home/refresh?path=${encodeURIComponent('/seeMore')}`);
    await expect(page).toHaveURL(/\/home\/seeMore$/);
  });
});
