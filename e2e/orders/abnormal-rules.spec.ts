/**
 * Abnormal rules (issue 13): an operator switches a rule off and on again from its page; the
 * server keeps the switch (what it changes on create and import: apps/server/test/interceptions.test.ts).
 */
import { expect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { api, loginByCookie } from '../support/session.ts';

type Rule = { code: string; enabled: boolean };

test('an operator switches an abnormal rule off and on; the server keeps it', async ({ page, context, request }) => {
  const token = await loginByCookie(context, request, 'operator');
  const enabled = async () =>
    (await api<Rule[]>(request, 'validateAbnormalRule/selectAllRule', {}, token)).body.data.find(
      (r) => r.code === 'invalidPhone',
    )!.enabled;
  expect(await enabled()).toBe(true);
  await page.goto(`${MAIN}/home/order/abnormalRules`);
  const rule = page.getByTestId('rule-invalidPhone');
  await expect(rule).toHaveAttribute('aria-checked', 'true');
  try {
    await rule.click();
    await expect(page.locator('.ant-message')).toContainText('已停用规则：电话无效');
    await expect(rule).toHaveAttribute('aria-checked', 'false');
    expect(await enabled()).toBe(false);
    // Keyboard: the switch is a button.
    await rule.focus();
    await page.keyboard.press('Space');
    await expect(rule).toHaveAttribute('aria-checked', 'true');
    await expect.poll(enabled).toBe(true);
  } finally {
    await api(request, 'validateAbnormalRule/updateRule', { code: 'invalidPhone', enabled: true }, token);
  }
});
