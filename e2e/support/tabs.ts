/** The tab bar as specs drive it: a tab, opening a page inside the running console, closing all tabs. */
import { expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { MAIN } from '../servers.ts';
import { loginByCookie } from './session.ts';

export const tab = (page: Page, path: string) => page.locator(`[data-testid="tab"][data-path="${path}"]`);

/** Opens a page inside the running console (as a menu click does), so kept tabs stay mounted. */
export async function openInConsole(page: Page, path: string) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', `/home${p}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(tab(page, path)).toHaveClass(/is-active/);
}

/** "Close all" from the home tab's menu (its last entry), confirming when a dirty tab makes it ask. */
export async function closeAllTabs(page: Page) {
  await tab(page, '/index').click({ button: 'right' });
  await page.locator('.ant-dropdown:visible').getByRole('menuitem').last().click();
  const confirm = page.locator('.ant-modal-confirm:visible');
  if (await confirm.count()) await confirm.getByRole('button', { name: /^(关\s*闭|Close)$/ }).click();
  await expect(page.getByTestId('tab')).toHaveCount(1);
}

/** Logged in by cookie, the console open on its home tab alone: where the tab specs start. */
export async function consoleWithHomeTabOnly(
  page: Page,
  context: BrowserContext,
  request: APIRequestContext,
  user = 'demo',
): Promise<string> {
  const token = await loginByCookie(context, request, user);
  await page.goto(`${MAIN}/home/index`);
  await expect(page.getByTestId('home')).toBeVisible();
  await closeAllTabs(page);
  return token;
}
