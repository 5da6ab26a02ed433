/**
 * Pickups as a customer clicks them (issue 16): a Tokyo pickup booked on the first open date
 * (the picker greys out Sundays, holidays and days past the cutoff) in a slot with places left,
 * the shop abbreviation suggested from the Chinese shop name; its slip downloaded (a PDF); then
 * found in the list, cancelled with a reason, and the cancellation in the messages tab.
 */
import { readFile } from 'node:fs/promises';
import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

test('pickups: book a Tokyo pickup → download its slip → cancel it with a reason', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ locale: 'en-US' });
  await loginByCookie(context, request, 'demo');
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const errors = watchPageErrors(page);
  const box = `E2EBOX${Date.now() % 1_000_000}`;

  const slotsLoaded = page.waitForResponse((r) => r.url().endsWith('/api/subscribe/time/slots'));
  await page.goto(`${MAIN}/home/subscribeTake/create`);
  const form = page.getByTestId('pickup-create');
  await expect(form).toBeVisible();
  await form
    .getByTestId('pickup-region')
    .getByText(/Tokyo|东京/)
    .click();
  await form.getByTestId('pickup-date').click();
  // The calendar slides in for 0.2 s and its rows move meanwhile: a click then pressed on one day
  // and released on the day above it, which selects nothing (2 runs in 36, and a CI run).
  const calendar = page.locator('.ant-picker-dropdown');
  await expect(calendar).not.toHaveClass(/slide-up-(appear|enter)/);
  await slotsLoaded;
  const open = calendar.locator('.ant-picker-cell-in-view:not(.ant-picker-cell-disabled)').first();
  // Past the cutoff on a month's last open day, the first open day is in the next month (which
  // the 62 days of the slots call cover too).
  if (!(await open.count())) await calendar.locator('.ant-picker-header-next-btn').click();
  await open.click();
  const slot = form
    .getByTestId('pickup-slot')
    .locator('label.ant-radio-button-wrapper:not(.ant-radio-button-wrapper-disabled)')
    .first();
  await expect(slot).toBeVisible();
  await slot.click();
  await form.getByTestId('pickup-shop-name').fill('优衣库');
  await form.getByTestId('pickup-box-no').click();
  await expect(form.getByTestId('pickup-shop-abbr')).toHaveValue('YYK');
  await form.getByTestId('pickup-box-no').fill(box);
  await form.getByTestId('pickup-big').fill('2');
  await form.getByTestId('pickup-small').fill('1');
  await form.getByTestId('pickup-marker').fill('E2E');
  await form.getByTestId('pickup-submit').click();
  const done = page.getByTestId('pickup-done');
  await expect(done).toBeVisible();
  const pickupNo = (await done.textContent())!.match(/PK\d+/)![0];

  // The slip: a PDF named after the booking.
  const [download] = await Promise.all([page.waitForEvent('download'), done.getByTestId('pickup-done-slip').click()]);
  expect(download.suggestedFilename()).toBe(`${pickupNo}.pdf`);
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // The list: found by its box number, cancelled with a reason.
  await page.goto(`${MAIN}/home/subscribeTake/list`);
  await page.getByTestId('pickup-filter-box').fill(box);
  await page.getByTestId('pickup-search').click();
  const row = page.getByTestId('pickup-table').locator(`tr[data-pickup-no="${pickupNo}"]`);
  await expect(row).toBeVisible();
  await expect(page.getByTestId('pickup-table').locator('tbody tr[data-pickup-no]')).toHaveCount(1);
  const [again] = await Promise.all([page.waitForEvent('download'), row.getByTestId('pickup-slip').click()]);
  expect(again.suggestedFilename()).toBe(`${pickupNo}.pdf`);
  await row.getByTestId('pickup-cancel').click();
  await page.getByTestId('pickup-cancel-ok').click();
  await expect(page.locator('.ant-form-item-explain-error')).toBeVisible();
  await page.getByTestId('pickup-cancel-reason').fill('Shop closed that day');
  await page.getByTestId('pickup-cancel-ok').click();
  await expect(row.locator('.ant-tag')).toHaveText(/Cancelled|已取消/);
  await expect(row.getByTestId('pickup-cancel')).toHaveCount(0);

  // The messages tab tells of the booking and the cancellation.
  await page.getByRole('tab', { name: /Pickup messages|取件消息/ }).click();
  const messages = page.getByTestId('pickup-messages');
  await expect(messages.getByText(new RegExp(`${pickupNo}.*(cancelled|已取消)`))).toBeVisible();
  await expect(messages.getByText(new RegExp(`${pickupNo}.*(booked|已成功)`))).toBeVisible();
  expect(errors).toEqual([]);
  await context.close();
});
