/**
 * System → Rate cards (issue 17): the list shows the API's cards and filters by channel on the
 * server; "New version" saves the card's rules, changed, from a later date (a card is never
 * edited); customers may neither list nor save cards.
 */
import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';
import { expectRows, watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });
type Card = {
  id: number;
  channelCode: string;
  customerId: number | null;
  effectiveFrom: string;
  rules: { firstPrice: number };
};

test('an operator reads the rate cards, filters them and saves a new version from tomorrow', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const errors = watchPageErrors(page);
  const token = await loginByCookie(context, request, 'operator');
  const list = async (body: Record<string, unknown>) =>
    (
      await api<{ total: number; list: Card[] }>(
        request,
        'rateCards/list',
        { offset: 0, limit: 20, order: 'desc', ...body },
        token,
      )
    ).body.data;

  await page.goto(`${MAIN}/home/system/rateCards`);
  const table = page.getByTestId('cards-table');
  await expectRows(
    table,
    (await list({})).list.map((c) => c.id),
  );

  // Filter by channel: the server's answer for JP.
  await page.getByTestId('cards-channel').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: /^JP / }).click();
  await page.getByTestId('cards-search').click();
  const jp = (await list({ channelCode: 'JP' })).list;
  expect(jp.every((c) => c.channelCode === 'JP') && jp.length > 0).toBe(true);
  await expectRows(
    table,
    jp.map((c) => c.id),
  );

  // A new version of JP's channel card, first price raised, from tomorrow (the form's default).
  const card = jp.find((c) => c.customerId === null)!;
  await page.getByTestId(`card-version-${card.id}`).click();
  const price = page.getByTestId('card-first-price');
  await expect(price).toHaveValue(String(card.rules.firstPrice));
  await price.fill(String(card.rules.firstPrice + 111));
  await page.getByTestId('card-save').click();
  await expect(page.locator('.ant-message')).toContainText(/Rate card saved|价卡已保存/);

  const after = (await list({ channelCode: 'JP' })).list;
  const added = after.find((c) => !jp.some((o) => o.id === c.id));
  expect(added).toMatchObject({
    channelCode: 'JP',
    customerId: null,
    rules: { firstPrice: card.rules.firstPrice + 111 },
  });
  expect(added!.effectiveFrom > card.effectiveFrom).toBe(true);
  // The old version stays as it was: charges of its days keep its prices.
  expect(after.find((c) => c.id === card.id)!.rules.firstPrice).toBe(card.rules.firstPrice);
  await expectRows(
    table,
    after.map((c) => c.id),
  );

  // Customers: neither the list nor a save.
  const demo = await apiLogin(request, 'demo');
  expect((await api(request, 'rateCards/list', { offset: 0, limit: 20, order: 'desc' }, demo)).status).toBe(403);
  expect(
    (
      await api(
        request,
        'rateCards/save',
        { channelCode: 'JP', effectiveFrom: '2030-01-01', rules: { firstWeightG: 1, firstPrice: 1 } },
        demo,
      )
    ).status,
  ).toBe(403);
  expect(errors).toEqual([]);
});
