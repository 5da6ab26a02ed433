/**
 * PostCode page (issue 5): a Japanese code resolves to its places from Japan Post's data
 * (several for some codes), a Chinese one is checked for 6 digits and an existing zone, its province
 * hinted, and never called verified (issue 11 finding 13).
 */
import { expect, test, type Page } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { choose } from '../support/orders.ts';
import { loginByCookie } from '../support/session.ts';

const places = (page: Page) =>
  page
    .getByTestId('postcode-places')
    .locator('.ant-table-row')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));

async function lookUp(page: Page, country: 'JP' | 'CN', code: string) {
  await choose(page, page.getByTestId('postcode-country'), country);
  await page.getByTestId('postcode-input').fill(code);
  await page.getByTestId('postcode-lookup').click();
}

test('PostCode: a Japanese and a Chinese postal code looked up, invalid ones told apart', async ({
  page,
  context,
  request,
}) => {
  await loginByCookie(context, request, 'operator');
  await page.goto(`${MAIN}/home/order/postCode`);

  // Japan, written as people write it: the mark and the hyphen are dropped.
  await lookUp(page, 'JP', '〒100-0014');
  await expect(page.getByTestId('postcode-valid')).toHaveText('有效');
  await expect(page.getByTestId('postcode-code')).toHaveText('1000014');
  await expect.poll(() => places(page)).toEqual([['東京都', '千代田区', '永田町']]);

  // One code, many places: every one is listed.
  await page.getByTestId('postcode-input').fill('452-0961');
  await page.getByTestId('postcode-input').press('Enter');
  await expect(page.getByTestId('postcode-code')).toHaveText('4520961');
  await expect.poll(async () => (await places(page)).length).toBeGreaterThan(10);
  const kasuga = await places(page);
  expect(new Set(kasuga.map(([pref, city]) => `${pref} ${city}`))).toEqual(new Set(['愛知県 清須市']));
  expect(kasuga.map(([, , town]) => town)).toContain('春日夢の森');

  // Six digits are not a Japanese code.
  await lookUp(page, 'JP', '100001');
  await expect(page.getByTestId('postcode-valid')).toHaveText('无效');
  await expect(page.getByTestId('postcode-note')).toContainText('日本邮编为 7 位数字');

  // China: six digits, the province hinted from China Post's zoning; plausible, never "verified".
  await lookUp(page, 'CN', '100000');
  await expect(page.getByTestId('postcode-valid')).toHaveText('格式正确，未核实');
  await expect(page.getByTestId('postcode-code')).toHaveText('100000');
  await expect.poll(() => places(page)).toEqual([['北京市', '', '']]);
  await expect(page.getByTestId('postcode-note')).toContainText('仅提示所属省份');

  await page.getByTestId('postcode-input').fill('310000');
  await page.getByTestId('postcode-lookup').click();
  await expect.poll(() => places(page)).toEqual([['浙江省', '', '']]);

  // Issue 11 finding 13: six digits in a zone that does not exist are not valid (and say why).
  await page.getByTestId('postcode-input').fill('999999');
  await page.getByTestId('postcode-lookup').click();
  await expect(page.getByTestId('postcode-code')).toHaveText('999999');
  await expect(page.getByTestId('postcode-valid')).toHaveText('无效');
  await expect(page.getByTestId('postcode-note')).toContainText('没有以 99 开头的中国邮区');
  await expect(page.getByTestId('postcode-places')).toContainText('没有对应的地区');

  await page.getByTestId('postcode-input').fill('31000');
  await page.getByTestId('postcode-lookup').click();
  await expect(page.getByTestId('postcode-valid')).toHaveText('无效');
  await expect(page.getByTestId('postcode-note')).toHaveText('中国邮编为 6 位数字。');
  await expect(page.getByTestId('postcode-places')).toContainText('没有对应的地区');
});
