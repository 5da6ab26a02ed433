/**
 * Issue 28 #16: the pickup update page (spec §2 subscribeTake.update, call
 * subscribe/take/piece/update) and a pickup detail view (subscribe/take/piece/info); neither had
 * a page. A customer opens a booked pickup's detail from the list, goes on to edit it, moves it to
 * another slot of the same day with another box number and count, and the list, the detail's
 * history and the slots' places left all show the change.
 */
import { expect as baseExpect, test, type APIRequestContext } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

type Slot = { slot: string; left: number };
type Day = { date: string; open: boolean; slots: Slot[] };

const slotsOf = async (request: APIRequestContext, token: string) =>
  (await api<{ days: Day[] }>(request, 'subscribe/time/slots', { region: 'tokyo', days: 62 }, token)).body.data.days;

test('pickups: detail from the list → edit → another slot, box and count; list, history and places follow', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const token = await apiLogin(request, 'demo');
  // An open day with two slots that have places: the booking takes one, the edit moves it to the other.
  const day = (await slotsOf(request, token)).find((d) => d.open && d.slots.filter((s) => s.left > 0).length >= 2)!;
  expect(day).toBeDefined();
  const [from, to] = day.slots.filter((s) => s.left > 0);
  const box = `E2EUPD${Date.now() % 1_000_000}`;
  const booked = await api<{ id: number; pickupNo: string }>(
    request,
    'subscribe/take/piece',
    {
      region: 'tokyo',
      date: day.date,
      slot: from!.slot,
      boxNo: box,
      shopAbbr: 'UPD',
      bigCartons: 1,
      smallParcels: 0,
      markerPrefix: 'UPD',
    },
    token,
  );
  expect(booked.status).toBe(200);
  const { pickupNo } = booked.body.data;
  const leftOf = async (slot: string) =>
    (await slotsOf(request, token)).find((d) => d.date === day.date)!.slots.find((s) => s.slot === slot)!.left;
  const [fromLeft, toLeft] = [await leftOf(from!.slot), await leftOf(to!.slot)];

  // The console's language is the user's setting (zh by default): texts are matched in either.
  const context = await browser.newContext({ locale: 'en-US' });
  await loginByCookie(context, request, 'demo');
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  await page.goto(`${MAIN}/home/subscribeTake/list`);
  const table = page.getByTestId('pickup-table');
  await page.getByTestId('pickup-filter-box').fill(box);
  await page.getByTestId('pickup-search').click();
  const row = table.locator(`tr[data-pickup-no="${pickupNo}"]`);
  await expect(row).toBeVisible();

  // The detail: every field, read from the server, and the booking's history.
  await row.getByTestId('pickup-open').click();
  const detail = page.getByTestId('pickup-detail');
  await expect(detail).toContainText(new RegExp(`(Pickup detail|预约详情) ${pickupNo}`));
  await expect(detail).toContainText(box);
  await expect(detail).toContainText(`${day.date}`);
  await expect(detail.getByTestId('pickup-detail-history')).toContainText(
    new RegExp(`(Pickup|预约) ${pickupNo} (booked|已成功)`),
  );

  // On to the update page: it starts from the booking, its own slot marked.
  await detail.getByTestId('pickup-detail-edit').click();
  await expect(page).toHaveURL(/\/home\/subscribeTake\/update\?id=\d+$/);
  const form = page.getByTestId('pickup-update');
  await expect(form).toContainText(new RegExp(`(Edit pickup|修改预约) ${pickupNo}`));
  await expect(form.getByTestId('pickup-box-no')).toHaveValue(box);
  await expect(form.getByTestId('pickup-slot').locator('label', { hasText: from!.slot })).toContainText(
    /current booking|当前预约/,
  );
  const newBox = `${box}B`;
  await form.getByTestId('pickup-box-no').fill(newBox);
  await form.getByTestId('pickup-big').fill('3');
  await form.getByTestId('pickup-slot').locator('label', { hasText: to!.slot }).click();
  await form.getByTestId('pickup-save').click();
  await expect(page.getByText(new RegExp(`(Pickup|预约) ${pickupNo} (changed|已修改)`)).first()).toBeVisible();
  await expect(page).toHaveURL(/\/home\/subscribeTake\/list/);

  // The list shows the change; the detail's history has it; the places moved.
  await page.getByTestId('pickup-filter-box').fill(newBox);
  await page.getByTestId('pickup-search').click();
  await expect(row).toContainText(to!.slot);
  await expect(row).toContainText('3 / 0');
  await row.getByTestId('pickup-open').click();
  await expect(detail.getByTestId('pickup-detail-history')).toContainText(
    new RegExp(`(Pickup|预约) ${pickupNo} (changed|已修改|已变更)`),
  );
  expect(await leftOf(from!.slot)).toBe(fromLeft + 1);
  expect(await leftOf(to!.slot)).toBe(toLeft - 1);
  expect(errors).toEqual([]);
  await context.close();
});
