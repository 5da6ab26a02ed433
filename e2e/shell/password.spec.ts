import { expect, test, type Page } from '@playwright/test';
import { PASSWORD } from '../servers.ts';
import { loginUI } from '../support/session.ts';

const item = (page: Page, id: string) => page.locator('.ant-form-item').filter({ has: page.locator(`#${id}`) });
/** The field's error; antd animates the old one out, so match the visible text, not the node. */
const expectError = (page: Page, id: string, text: string) =>
  expect(item(page, id).locator('.ant-form-item-explain-error').filter({ hasText: text })).toBeVisible();
const expectNoError = (page: Page, id: string) =>
  expect(item(page, id).locator('.ant-form-item-explain-error')).toHaveCount(0);

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
  await expectError(page, 'old_password', 'old password cannot be empty');
  await page.locator('#confirm').focus();
  await expectError(page, 'password', 'please enter password');
  await page.locator('#old_password').focus();
  await expectError(page, 'confirm', 'please enter password again');

  await page.locator('#password').fill('NewPass#2026');
  await page.locator('#confirm').fill('Different#2026');
  await page.locator('#old_password').focus();
  await expectError(page, 'confirm', 'The passwords entered twice are inconsistent');
  // Changing the new password re-checks the confirmation.
  await page.locator('#password').fill('Different#2026');
  await expectNoError(page, 'confirm');

  // Wrong old password: the server's 422 lands under old_password, without a toast.
  await page.locator('#old_password').fill('not-my-password');
  const wrongOld = page.waitForResponse((r) => r.url().endsWith('/api/updatePassWord'));
  await dialog.locator('.ant-btn-primary').click();
  const res = await wrongOld;
  expect(res.status()).toBe(422);
  const body = (await res.json()) as { data: Record<string, string[]> };
  await expectError(page, 'old_password', body.data.old_password[0]);
  await expect(page.locator('.ant-message-error')).toHaveCount(0);

  // Same password as before: the 422 lands under password.
  await page.locator('#old_password').fill(PASSWORD);
  await page.locator('#password').fill(PASSWORD);
  await page.locator('#confirm').fill(PASSWORD);
  const same = page.waitForResponse((r) => r.url().endsWith('/api/updatePassWord'));
  await dialog.locator('.ant-btn-primary').click();
  const sameBody = (await (await same).json()) as { data: Record<string, string[]> };
  await expectError(page, 'password', sameBody.data.password[0]);
  await expect(dialog).toBeVisible();
});
