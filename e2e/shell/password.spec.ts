import { expect, test, type Page } from '@playwright/test';
import { PASSWORD } from '../servers.ts';
import { loginUI } from '../support/session.ts';

const item = (page: Page, id: string) => page.locator('.ant-form-item').filter({ has: page.locator(`#${id}`) });
const error = (page: Page, id: string) => item(page, id).locator('.ant-form-item-explain-error');

test('change password: blur checks, the four messages, 422 under old_password and password', async ({ page }) => {
  await page.goto('login');
  await page.evaluate(() => localStorage.setItem('1.21.2-locale', '"en"'));
  await loginUI(page, 'agent');
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Change password' }).click();
  const dialog = page.locator('.ant-modal');
  await expect(dialog).toContainText('Change password');

  // Checked on blur.
  await page.locator('#old_password').focus();
  await page.locator('#password').focus();
  await expect(error(page, 'old_password')).toHaveText('old password cannot be empty');
  await page.locator('#confirm').focus();
  await expect(error(page, 'password')).toHaveText('please enter password');
  await page.locator('#old_password').focus();
  await expect(error(page, 'confirm')).toHaveText('please enter password again');

  await page.locator('#password').fill('NewPass#2026');
  await page.locator('#confirm').fill('Different#2026');
  await page.locator('#old_password').focus();
  await expect(error(page, 'confirm')).toHaveText('The passwords entered twice are inconsistent');
  // Changing the new password re-checks the confirmation.
  await page.locator('#password').fill('Different#2026');
  await expect(error(page, 'confirm')).toHaveCount(0);

  // Wrong old password: the server's 422 lands under old_password, without a toast.
  await page.locator('#old_password').fill('not-my-password');
  const wrongOld = page.waitForResponse((r) => r.url().endsWith('/api/updatePassWord'));
  await dialog.locator('.ant-btn-primary').click();
  const res = await wrongOld;
  expect(res.status()).toBe(422);
  const body = (await res.json()) as { data: Record<string, string[]> };
  await expect(error(page, 'old_password')).toHaveText(body.data.old_password[0]);
  await expect(page.locator('.ant-message-error')).toHaveCount(0);

  // Same password as before: the 422 lands under password.
  await page.locator('#old_password').fill(PASSWORD);
  await page.locator('#password').fill(PASSWORD);
  await page.locator('#confirm').fill(PASSWORD);
  const same = page.waitForResponse((r) => r.url().endsWith('/api/updatePassWord'));
  await dialog.locator('.ant-btn-primary').click();
  const sameBody = (await (await same).json()) as { data: Record<string, string[]> };
  await expect(error(page, 'password')).toHaveText(sameBody.data.password[0]);
  await expect(dialog).toBeVisible();
});
