/**
 * Issue 28 #22: System → Sessions (session.manage) opened "coming soon". An operator finds a
 * customer's session by its user on the server, sees its browser and address, and ends it after a
 * confirmation: cancelling leaves it alive; confirming ends that browser's session only (430 there)
 * while the same user's other browser keeps working.
 */
import { expect as baseExpect, test, type APIRequestContext } from '../support/test.ts';
import { MAIN, PASSWORD } from '../servers.ts';
import { aesApi } from '../support/aes.ts';
import { loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

/** A login as from one browser: its uuid cookie and its user agent. */
async function loginFrom(request: APIRequestContext, uuid: string, agent: string) {
  const r = await request.post(`${MAIN}/api/login`, {
    data: { name: 'demo2', password: PASSWORD, uuid },
    headers: { 'user-agent': agent },
  });
  expect(r.status()).toBe(200);
  return ((await r.json()) as { data: { access_token: string } }).data.access_token;
}

test('sessions: find a user’s session, end it after a confirmation; the other browser stays', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const firefox = `e2e-ff-${stamp}`;
  const chrome = `e2e-ch-${stamp}`;
  const ffToken = await loginFrom(request, firefox, 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko Firefox/140.0');
  const chToken = await loginFrom(request, chrome, 'Mozilla/5.0 (Windows NT 10.0) AppleWebKit Chrome/141.0 Safari/537');
  const alive = async (token: string) => (await aesApi(request, 'me', {}, token)).status;

  const context = await browser.newContext({ locale: 'zh-CN' });
  await loginByCookie(context, request, 'operator');
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  await page.goto(`${MAIN}/home/index`);
  // From the System menu, not a typed address.
  await page.getByTestId('aside').getByText('系统管理').click();
  await page.getByTestId('aside').getByText('会话管理').click();
  await expect(page).toHaveURL(/\/home\/session\/manage$/);
  const table = page.getByTestId('session-table');
  await expect(table).toBeVisible();

  await page.getByTestId('session-keyword').fill('demo2');
  await page.getByTestId('session-search').click();
  const ffRow = table.locator(`tr[data-session-uuid="${firefox}"]`);
  const chRow = table.locator(`tr[data-session-uuid="${chrome}"]`);
  await expect(ffRow).toContainText('Firefox 140');
  await expect(chRow).toContainText('Chrome 141');
  await expect(ffRow).toContainText('DEMO2');
  // Every row the server answered matches demo2 by user or by customer code (other specs log in
  // users of customer DEMO2 too): the filter ran there.
  const rows = table.locator('tbody tr[data-session-uuid]');
  expect(await rows.count()).toBeGreaterThanOrEqual(2);
  const cells = await rows.evaluateAll((trs) =>
    trs.map((tr) => [tr.children[0]?.textContent ?? '', tr.children[2]?.textContent ?? '']),
  );
  const unmatched = cells.filter(([user, customer]) => !user.toLowerCase().includes('demo2') && customer !== 'DEMO2');
  expect(unmatched).toEqual([]);

  const popover = page.locator('.ant-popconfirm:not(.ant-popover-hidden)');
  await ffRow.getByTestId('session-end').click();
  await expect(popover).toContainText('结束 demo2 在此浏览器的会话');
  await popover.getByRole('button', { name: /取\s*消/ }).click();
  await expect(popover).toBeHidden();
  expect(await alive(ffToken)).toBe(200);

  await ffRow.getByTestId('session-end').click();
  await popover.getByTestId('session-end-ok').click();
  await expect(page.getByText('已结束 demo2 的会话')).toBeVisible();
  await expect(ffRow).toHaveCount(0);
  await expect(chRow).toBeVisible();
  expect(await alive(ffToken)).toBe(430);
  expect(await alive(chToken)).toBe(200);

  // The operator's own session is marked and offers no end.
  await page.getByTestId('session-keyword').fill('operator');
  await page.getByTestId('session-search').click();
  const mine = table.locator('tbody tr').filter({ hasText: '当前会话' });
  await expect(mine).toHaveCount(1);
  await expect(mine.getByTestId('session-end')).toHaveCount(0);
  expect(errors).toEqual([]);
  await context.close();
});
