/**
 * Issue 28 item 26 beyond pages: axe (WCAG 2.1 A and AA, as shell/every-page.spec.ts runs it) on
 * what the page walk never opens — the login page, and the dialogs, drawers and popovers a user
 * meets most: the interception form with its field errors, the delete confirmation and the column
 * settings of Order List, the print settings dialog, a batch's orders drawer and the import
 * preview. No serious or critical violation in any of them.
 */
import { expect as baseExpect, test, type Page } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { accessibilityFaults } from '../support/axe.ts';
import { fillTemplate, importRow } from '../support/import.ts';
import { createOrder } from '../support/orders.ts';
import { loginByCookie } from '../support/session.ts';

// A busy machine (two cores for many browsers) answers slower than the default 10 s allows.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 120_000 });

const faults = (page: Page, selector?: string) => accessibilityFaults(page, selector);

/** antd animates a dialog in: axe reads colours mid-fade as lower contrast, so wait for the end. */
async function settled(page: Page, selector: string) {
  const box = page.locator(selector).last();
  await expect(box).toBeVisible();
  await expect
    .poll(() =>
      box.evaluate((el) => el.getAnimations({ subtree: true }).filter((a) => a.playState === 'running').length),
    )
    .toBe(0);
  await expect(page.locator('.ant-zoom-appear, .ant-zoom-enter, .ant-move-up-enter, .ant-fade-enter')).toHaveCount(0);
}

test('the login page', async ({ page }) => {
  await page.goto(`${MAIN}/home/login`);
  await expect(page.getByTestId('login-name')).toBeVisible({ timeout: 60_000 });
  expect(await faults(page)).toEqual([]);
  // With the form's own errors showing (an empty submit).
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-name-error')).not.toBeEmpty();
  expect(await faults(page)).toEqual([]);
});

test("Order List's column settings and delete confirmation, the interception form with its errors", async ({
  page,
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'demo');
  const order = await createOrder(request, token);
  await page.goto(`${MAIN}/home/order/list`);
  const table = page.getByTestId('order-table');
  await expect(page.getByTestId(`order-${order.orderNo}`)).toBeVisible({ timeout: 60_000 });

  await page.getByTestId('list-columns').click();
  await settled(page, '.ant-popover:not(.ant-popover-hidden)');
  expect(await faults(page, '.ant-popover:not(.ant-popover-hidden)')).toEqual([]);
  await page.keyboard.press('Escape');

  const box = table.locator('tbody tr.ant-table-row', { hasText: order.orderNo }).locator('.ant-checkbox-wrapper');
  await box.click();
  await expect(box.locator('.ant-checkbox-checked')).toHaveCount(1);
  await page.getByTestId('list-delete').click();
  await expect(page.getByTestId('list-delete-ok')).toBeVisible();
  await settled(page, '.ant-popconfirm:not(.ant-popover-hidden)');
  expect(await faults(page, '.ant-popconfirm:not(.ant-popover-hidden)')).toEqual([]);

  await page.goto(`${MAIN}/home/order/interceptions`);
  await page.getByTestId('interception-create').click({ timeout: 60_000 });
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('interception-submit').click();
  await expect(dialog.locator('.ant-form-item-explain-error')).toHaveCount(2);
  await settled(page, '.ant-modal');
  expect(await faults(page, '.ant-modal-wrap')).toEqual([]);
});

test('the print settings dialog', async ({ page, context, request }) => {
  await loginByCookie(context, request, 'demo');
  await page.goto(`${MAIN}/home/printByOrderNumber`);
  await page.getByTestId('print-settings').click({ timeout: 60_000 });
  await expect(page.getByTestId('print-settings-save')).toBeVisible();
  await settled(page, '.ant-modal');
  expect(await faults(page, '.ant-modal-wrap')).toEqual([]);
});

test("the import preview with its errors, then the batch's orders drawer", async ({ page, context, request }) => {
  await loginByCookie(context, request, 'demo');
  await page.goto(`${MAIN}/home/order/createImport`);
  const [dl] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.getByTestId('download-template').click({ timeout: 60_000 }),
  ]);
  const no = `E2EAX${Date.now().toString(36).toUpperCase()}`;
  const sheet = await fillTemplate(await dl.path(), [
    importRow(`${no}A`, '13800138001'),
    { ...importRow(`${no}B`), 'Recipient Phone': '' },
  ]);
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'orders.xlsx', mimeType: 'application/octet-stream', buffer: sheet });
  await expect(page.getByTestId('preview')).toBeVisible();
  await expect(page.getByTestId('preview-summary')).toContainText('1 个订单有错误');
  expect(await faults(page, '[data-testid="preview"]')).toEqual([]);

  await page.goto(`${MAIN}/home/order/batchList`);
  const view = page.locator('[data-testid^="batch-view-orders-"]').first();
  await view.click({ timeout: 60_000 });
  // The newest batch is the preview above, not yet confirmed: its drawer lists no orders.
  await expect(page.getByTestId('batch-orders-table').locator('tr.ant-table-row, .ant-empty').first()).toBeVisible();
  const drawer = '.ant-drawer:has([data-testid="batch-orders-table"])';
  await settled(page, drawer);
  expect(await faults(page, drawer)).toEqual([]);
});
