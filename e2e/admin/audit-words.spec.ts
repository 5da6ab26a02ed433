/**
 * Issue 36 #23: the audit log showed raw keys (`user.endSessions`, `{"ended":0}`). Now each row's
 * action is a sentence and its detail labelled values, in the user's language, and the action
 * filter offers the actions by their sentences. The rows are this spec's own: a user it creates,
 * whose sessions it ends.
 */
import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN, VERSION } from '../servers.ts';
import { aesApi } from '../support/aes.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

test('audit log: actions as sentences and details in words, in zh and en; the filter by action', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const name = `audit.${Date.now().toString(36)}`;
  const adminToken = await apiLogin(request, 'admin');
  const made = await aesApi<{ user: { id: number } }>(
    request,
    'admin/user/create',
    { name, displayName: 'Audit words', role: 'operator', customerId: null },
    adminToken,
  );
  expect(made.status).toBe(200);
  const ended = await api(request, 'admin/user/endSessions', { id: made.body.data.user.id }, adminToken);
  expect(ended.status).toBe(200);

  const context = await browser.newContext({ locale: 'zh-CN' });
  await loginByCookie(context, request, 'admin');
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  await page.goto(`${MAIN}/home/index`);
  await page.getByTestId('aside').getByText('系统管理').click();
  await page.getByTestId('aside').getByText('审计日志').click();
  await expect(page).toHaveURL(/\/home\/system\/audit$/);
  const audit = page.getByTestId('admin-audit');

  // Filter by the action's sentence, and by this spec's user.
  await audit.getByLabel('动作').click();
  await page.keyboard.type('全部会话');
  await page.locator('.ant-select-item-option').filter({ hasText: '结束用户的全部会话' }).click();
  await audit.getByLabel('对象').fill(`user:${name}`);
  await audit.getByRole('button', { name: /查\s*询/ }).click();
  const rows = audit.locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('结束用户的全部会话');
  await expect(rows.first()).toContainText('结束的会话数: 0');
  await expect(audit.locator('tbody')).not.toContainText('user.endSessions');
  await expect(audit.locator('tbody')).not.toContainText('"ended"');
  // The filter went to the server, with the action's key.
  expect(new URL(page.url()).search).toContain('user.endSessions');

  // The user's creation, in English.
  await page.evaluate((v) => localStorage.setItem(`${v}-locale`, JSON.stringify('en')), VERSION);
  await page.goto(`${MAIN}/home/system/audit`);
  await page.getByTestId('admin-audit').getByLabel('Target').fill(`user:${name}`);
  await page.getByTestId('admin-audit').getByRole('button', { name: 'Search' }).click();
  const enRows = page.getByTestId('admin-audit').locator('tbody tr.ant-table-row');
  await expect(enRows).toHaveCount(2);
  await expect(enRows.filter({ hasText: 'Created a user' })).toContainText('Role: operator');
  await expect(enRows.filter({ hasText: 'Ended all of a user’s sessions' })).toContainText('Sessions ended: 0');
  expect(errors).toEqual([]);
  await context.close();
});
