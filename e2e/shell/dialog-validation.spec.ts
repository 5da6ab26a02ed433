/**
 * Issue 36 #22: pressing a dialog's OK with a required field empty showed the fields' messages and
 * "表单校验失败，请检查", and also threw an uncaught rejection ("Uncaught (in promise) Object"):
 * the modal's OK awaits the form's validation, whose rejection nobody handled. A validation stop
 * is not a fault: no page error.
 */
import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

test('a dialog’s OK with an empty required field: the fields say why, and no uncaught error', async ({
  page,
  context,
  request,
}) => {
  await loginByCookie(context, request, 'demo');
  const errors = watchPageErrors(page);
  await page.goto(`${MAIN}/home/recipient/list`);
  await page.getByTestId('recipient-create').click();
  await page.getByTestId('recipient-save').click();
  await expect(page.locator('.ant-message')).toContainText('表单校验失败，请检查');
  await expect(page.getByTestId('recipient-form').locator('.ant-form-item-explain-error').first()).toBeVisible();
  // The dialog stays for the user to fill in.
  await expect(page.getByTestId('recipient-form')).toBeVisible();
  expect(errors).toEqual([]);
});
