/**
 * Administration as an operator clicks it (issue 17): a customer and its user made from the
 * System menu; the user logs in with the one-time password, is made to change it before
 * anything else, and lands in the console as that customer.
 */
import { expect as baseExpect, test } from '@playwright/test';
import { MAIN } from '../servers.ts';
import { loginByCookie } from '../support/session.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

test('admin: operator creates a customer and its user; the user must change the one-time password', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const suffix = Date.now().toString(36).toUpperCase();
  const code = `E2E-${suffix}`;
  const userName = `e2e.${suffix.toLowerCase()}`;

  const operator = await browser.newContext();
  await loginByCookie(operator, request, 'operator');
  const page = await operator.newPage();
  page.setDefaultTimeout(30_000);

  await page.goto(`${MAIN}/home/system/customers`);
  await page.getByTestId('customer-new').click();
  await page.getByTestId('customer-code').fill(code);
  await page.getByTestId('customer-name').fill(`E2E Customer ${suffix}`);
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /保\s*存|Save/ })
    .click();
  await expect(page.getByTestId('admin-customers').getByText(code)).toBeVisible();

  await page.goto(`${MAIN}/home/system/users`);
  await page.getByTestId('user-new').click();
  await page.getByTestId('user-name').fill(userName);
  await page.getByTestId('user-display-name').fill('E2E user');
  await page.getByTestId('user-customer').click();
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /保\s*存|Save/ })
    .click();
  const otp = (await page.getByTestId('one-time-password').textContent())!.trim();
  expect(otp).toHaveLength(14);

  const user = await browser.newContext();
  const up = await user.newPage();
  up.setDefaultTimeout(30_000);
  await up.goto(`${MAIN}/home/login`);
  await up.getByTestId('login-name').fill(userName);
  await up.getByTestId('login-password').fill(otp);
  await up.getByTestId('login-submit').click();
  // The dialog comes first and cannot be dismissed; the console waits behind it.
  const dialog = up.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(up.getByTestId('home')).toHaveCount(0);
  await dialog.locator('#old_password').fill(otp);
  await dialog.locator('#password').fill('Bright-Lantern-42');
  await dialog.locator('#confirm').fill('Bright-Lantern-42');
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(up.getByTestId('home')).toBeVisible();
  await expect(up).toHaveURL(/\/home\/index$/);

  await operator.close();
  await user.close();
});
