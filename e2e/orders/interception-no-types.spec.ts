/**
 * Issue 28 #17: the interception form hard-coded the number kinds; it now offers the server's
 * `noTypes` list (less batch numbers, which an interception does not take) under the server's
 * names. The answer is renamed on its way here, so only a page that reads the call shows it.
 */
import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

test('interceptions: the number kinds are the server’s noTypes, batch numbers left out', async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ locale: 'zh-CN' });
  await loginByCookie(context, request, 'demo');
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  let asked = false;
  await page.route('**/api/noTypes', async (route) => {
    asked = true;
    const res = await route.fetch();
    const body = (await res.json()) as { data: { code: string; name: { zh: string; en: string } }[] };
    for (const k of body.data) k.name = { zh: `${k.name.zh}·服务端`, en: `${k.name.en} (server)` };
    await route.fulfill({ response: res, json: body });
  });
  await page.goto(`${MAIN}/home/order/interceptions`);
  await page.getByTestId('interception-create').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('interception-no-type')).toContainText('运单号·服务端');
  await dialog.getByTestId('interception-no-type').click();
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await expect(options).toHaveText([
    '订单号·服务端',
    '运单号·服务端',
    '拆分运单号·服务端',
    '系统单号·服务端',
    '用户参考号·服务端',
  ]);
  expect(asked).toBe(true);
  expect(errors).toEqual([]);
  await context.close();
});
