import { expect, test, type Page } from '../support/test.ts';
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

test('change password: the policy is shown before typing and checked as the user types (zh and en)', async ({
  page,
}) => {
  await page.goto('login');
  await loginUI(page, 'agent');
  const open = async (menuName: string) => {
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: menuName }).click();
  };
  await open('修改密码');
  const rules = page.getByTestId('password-rules');
  const rule = (name: string) => rules.locator(`li[data-rule="${name}"]`);
  // Before typing: every rule is listed, none judged.
  await expect(rules).toContainText('新密码须满足');
  await expect(rules.locator('li')).toHaveText([
    /8 至 128 个字符/,
    /至少包含小写字母、大写字母、数字、符号中的三种/,
    /不包含用户名/,
    /不是常用密码/,
  ]);
  await expect(rules.locator('li[data-state="pending"]')).toHaveCount(4);

  // Spec §5's four messages in Chinese, checked on blur (issue 28 item 24; English in the test above).
  await page.locator('#old_password').focus();
  await page.locator('#password').focus();
  await expectError(page, 'old_password', '旧密码不能为空');
  await page.locator('#confirm').focus();
  await expectError(page, 'password', '请输入密码');
  await page.locator('#old_password').focus();
  await expectError(page, 'confirm', '请再次输入密码');
  await page.locator('#password').fill('NewPass#2026');
  await page.locator('#confirm').fill('Different#2026');
  await page.locator('#old_password').focus();
  await expectError(page, 'confirm', '两次输入的密码不一致');
  await page.locator('#confirm').fill('');
  await page.locator('#password').fill('');

  // As the user types, without leaving the field.
  await page.locator('#password').pressSequentially('password');
  await expect(rule('tooShort')).toHaveAttribute('data-state', 'met');
  await expect(rule('kinds')).toHaveAttribute('data-state', 'broken');
  await expect(rule('common')).toHaveAttribute('data-state', 'broken');
  await expect(page.locator('#password')).toBeFocused();
  await expectError(page, 'password', '请至少使用小写字母、大写字母、数字、符号中的三种。');

  await page.locator('#password').fill('Password123!');
  await expect(rule('kinds')).toHaveAttribute('data-state', 'met');
  await expect(rule('common')).toHaveAttribute('data-state', 'broken');
  await expectError(page, 'password', '这是容易被猜到的常用密码，请换一个。');

  await page.locator('#password').fill('MyAgent#2026');
  await expect(rule('containsName')).toHaveAttribute('data-state', 'broken');
  await expect(rule('common')).toHaveAttribute('data-state', 'met');
  await expectError(page, 'password', '密码不能包含用户名。');

  await page.locator('#password').fill('Ab1!');
  await expect(rule('tooShort')).toHaveAttribute('data-state', 'broken');
  await expectError(page, 'password', '密码至少需要 8 个字符。');

  await page.locator('#password').fill('Warm#Tea2026');
  await expect(rules.locator('li[data-state="met"]')).toHaveCount(4);
  await expectNoError(page, 'password');
  await page.locator('.ant-modal .ant-btn:not(.ant-btn-primary)').click();

  // The same rule, in English.
  await page.evaluate(() => localStorage.setItem('1.21.2-locale', '"en"'));
  await page.reload();
  await open('Change password');
  await expect(rules.locator('li')).toHaveText([
    /8 to 128 characters/,
    /At least three of: lower-case letters, capitals, digits, symbols/,
    /Does not contain your user name/,
    /Not a commonly used password/,
  ]);
  await page.locator('#password').pressSequentially('password');
  await expectError(page, 'password', 'Use at least three of: lower-case letters, capitals, digits, symbols.');
  await expect(rule('common')).toHaveAttribute('data-state', 'broken');
});
