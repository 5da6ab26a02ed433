/**
 * Error Order List, every control (issue 11 findings 1, 2 and 22): search, paging with the
 * size changer, Recheck, and the fix dialog — OK only once the named field changed, Fix not
 * offered on locked orders. On the SHORT_TTL server, whose error orders are cloned in its file.
 */
import { expect as baseExpect, test, type APIRequestContext, type Page } from '../support/test.ts';
import { SHORT_TTL, dbFile } from '../servers.ts';
import { ensureErrorOrders } from '../support/db.ts';
import { idCard, type OrderRow } from '../support/orders.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';
import { choosePageSize, expectRows, gotoPage, sql, watchPageErrors } from '../support/tables.ts';

// A busy machine (two cores for many browsers) answers slower than the default 10 s allows.
const expect = baseExpect.configure({ timeout: 30_000 });

type Row = OrderRow & { errorReason: string | null; printFlag: boolean };
const table = (page: Page) => page.getByTestId('error-table');
const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
const errors = async (request: APIRequestContext, token: string, body: Record<string, unknown> = {}) =>
  (
    await api<{ total: number; list: Row[] }>(
      request,
      'order/error',
      { offset: 0, limit: 20, order: 'desc', ...body },
      await apiLogin(request, 'demo', SHORT_TTL),
      SHORT_TTL,
    )
  ).body.data;

async function open(page: Page) {
  await page.goto(`${SHORT_TTL}/home/order/error`);
  await expect(table(page).locator('tbody tr.ant-table-row').first()).toBeVisible({ timeout: 60_000 });
}

test.describe('Error Order List controls', () => {
  test.describe.configure({ timeout: 240_000 });
  test.beforeAll(() => {
    ensureErrorOrders(dbFile('short-ttl'), 'demo', 30);
  });

  test('finding 1 / 22: search, paging and the size changer show the API’s rows', async ({
    page,
    context,
    request,
  }) => {
    const token = await loginByCookie(context, request, 'demo', SHORT_TTL);
    const first = await errors(request, token);
    expect(first.total).toBeGreaterThan(20);
    await open(page);
    await expectRows(table(page), ids(first.list));
    await gotoPage(table(page), 2);
    await expectRows(table(page), ids((await errors(request, token, { offset: 20 })).list));
    await choosePageSize(page, table(page), 10);
    await expectRows(table(page), ids((await errors(request, token, { limit: 10 })).list));
    await gotoPage(table(page), 3);
    await expectRows(table(page), ids((await errors(request, token, { offset: 20, limit: 10 })).list));

    // Search goes back to page 1 and keeps the size.
    const target = first.list[0]!;
    const search = page.getByTestId('error-search').locator('input');
    await search.fill(target.orderNo);
    await search.press('Enter');
    const found = await errors(request, token, { keyword: target.orderNo, limit: 10 });
    await expectRows(table(page), ids(found.list));
    expect(found.list.map((r) => r.orderNo)).toContain(target.orderNo);
  });

  test('finding 2: Fix is offered only where it can succeed, and OK waits for the named field to change', async ({
    page,
    context,
    request,
  }) => {
    const pageErrors = watchPageErrors(page);
    const token = await loginByCookie(context, request, 'demo', SHORT_TTL);
    const list = (await errors(request, token, { limit: 200 })).list;
    // Seeded error orders (not the clones, which have no items and so cannot pass validation).
    const [fixable, locked] = list.filter(
      (r) => ['created', 'printed'].includes(r.status) && !r.intercepted && !r.orderNo.includes('-E'),
    );
    expect(fixable && locked).toBeTruthy();
    // Received: locked (a shipped error order is fixable since issue 13, for clearance refusals).
    sql(dbFile('short-ttl'), `UPDATE orders SET status = 'received' WHERE id = :id`, { id: locked!.id });

    await open(page);
    const search = page.getByTestId('error-search').locator('input');
    await search.fill(locked!.orderNo);
    await search.press('Enter');
    await expect(page.getByTestId(`fix-locked-${locked!.orderNo}`)).toBeVisible();
    await expect(page.getByTestId(`fix-${locked!.orderNo}`)).toHaveCount(0);

    await search.fill(fixable!.orderNo);
    await search.press('Enter');
    await page.getByTestId(`fix-${fixable!.orderNo}`).click();
    const dialog = page.getByRole('dialog');
    const ok = dialog.getByTestId('fix-save');
    await expect(dialog.getByTestId('r-name')).not.toHaveValue('');
    const name = await dialog.getByTestId('r-name').inputValue();
    await expect(ok).toBeDisabled();
    await expect(dialog.getByTestId('fix-hint')).toBeVisible();
    // A field the reason does not name is not a fix.
    await dialog.getByTestId('r-phone').fill('13911112222');
    await expect(ok).toBeDisabled();
    await dialog.getByTestId('r-name').fill('钱七');
    await expect(ok).toBeEnabled();
    await dialog.getByTestId('r-name').fill(name);
    await expect(ok).toBeDisabled();
    await dialog.getByTestId('r-name').fill('钱七');
    await dialog.getByTestId('r-idCard').fill(idCard(4242));
    await ok.click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId(`fix-${fixable!.orderNo}`)).toHaveCount(0);
    const after = await api<{ errorReason: string | null; recipient: { name: string } }>(
      request,
      'order/order',
      { id: fixable!.id },
      await apiLogin(request, 'demo', SHORT_TTL),
      SHORT_TTL,
    );
    expect(after.body.data.errorReason).toBeNull();
    expect(after.body.data.recipient.name).toBe('钱七');
    expect(pageErrors).toEqual([]);
  });

  test('finding 22: Recheck clears the selected orders that are valid now', async ({ page, context, request }) => {
    const token = await loginByCookie(context, request, 'demo', SHORT_TTL);
    const before = await errors(request, token);
    await open(page);
    await expectRows(table(page), ids(before.list));
    await expect(page.getByTestId('error-recheck')).toBeDisabled();
    // Locked rows (received, shipped, intercepted…) cannot be chosen: Recheck would be refused whole.
    const locked = table(page).locator('tbody tr.ant-table-row', { has: page.locator('[data-testid^="fix-locked-"]') });
    if ((await locked.count()) > 0) await expect(locked.first().locator('input[type=checkbox]')).toBeDisabled();
    const choosable = table(page).locator('tbody tr.ant-table-row', {
      has: page.locator('input[type=checkbox]:not([disabled])'),
    });
    expect(await choosable.count()).toBeGreaterThanOrEqual(2);
    await choosable.nth(0).locator('.ant-checkbox-wrapper').click();
    await choosable.nth(1).locator('.ant-checkbox-wrapper').click();
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/order/error/update2') && r.status() === 200);
    await page.getByTestId('error-recheck').click();
    const result = ((await (await answer).json()) as { data: { cleared: number[] } }).data;
    await expect(page.locator('.ant-message')).toContainText(`已修正: ${result.cleared.length} / 2`);
    const after = await errors(request, token);
    expect(after.total).toBe(before.total - result.cleared.length);
    await expectRows(table(page), ids(after.list));
  });
});
