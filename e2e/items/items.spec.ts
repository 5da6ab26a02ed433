/**
 * The item review workflow as its users click it (issue 12): the customer creates an item with
 * an image (the JAN checked as it is typed, a refused file named); the operator fails it with a
 * reason; the customer finds it in the Failed To Pass Item List, fixes it and resubmits; the
 * operator approves it; an operator's adjustment is adopted by the customer on the unAdopt page.
 */
import { expect as baseExpect, test, type Browser, type Page } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { aesApi } from '../support/aes.ts';
import { createItem, itemDetail, listItems, png, uniqueJan, wrongDigit } from '../support/items.ts';
import { choose } from '../support/orders.ts';
import { apiLogin, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

async function as(browser: Browser, request: Parameters<typeof loginByCookie>[1], user: string) {
  const context = await browser.newContext();
  const token = await loginByCookie(context, request, user);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return { page, token, errors: watchPageErrors(page), close: () => context.close() };
}

async function filterByJan(page: Page, jan: string) {
  await page.getByTestId('list-reset').click();
  await page.getByTestId('list-jan').fill(jan);
  await page.getByTestId('list-search').click();
  await expect(page.getByTestId(`item-${jan}`)).toBeVisible();
}

test('item review: create with image → fail with reason → fix and resubmit → approve → adjustment adopted', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const customer = await as(browser, request, 'demo');
  const operator = await as(browser, request, 'operator');
  const jan = uniqueJan();

  // The customer: create, the JAN checked while typing.
  const c = customer.page;
  await c.goto(`${MAIN}/home/item/create`);
  await c.getByTestId('item-jan').fill(wrongDigit(jan));
  await expect(c.getByText(`JAN 校验位错误：最后一位应为 ${jan.at(-1)}`)).toBeVisible();
  await c.getByTestId('item-jan').fill(jan.slice(0, 6));
  await expect(c.getByText('JAN 须为 8 位或 13 位数字（已输入 6 位）')).toBeVisible();
  await c.getByTestId('item-jan').fill(jan);
  await expect(c.locator('.ant-form-item-explain-error')).toHaveCount(0);
  await c.getByTestId('item-nameZh').fill('保湿面霜');
  await c.getByTestId('item-nameEn').fill('Moisture cream');
  await c.getByTestId('item-nameJa').fill('保湿クリーム');
  await c.getByTestId('item-specs').fill('50g');
  await c.getByTestId('item-netWeight').fill('80');
  await c.getByTestId('item-clearancePrice').fill('12.345');
  await expect(c.getByText('请输入金额，最多两位小数，例如 12.50')).toBeVisible();
  await c.getByTestId('item-clearancePrice').fill('120.50');
  await c.getByTestId('item-declarationPrice').fill('2000');
  await c.getByTestId('item-group').fill('护肤');
  // No category and no new one: said before the server is asked.
  await c.getByTestId('item-submit').click();
  await expect(c.getByText('请选择类别，或填写新类别')).toBeVisible();
  await choose(c, c.getByTestId('item-brand'), '资生堂');
  // The category tree: search, then the leaf.
  await c.getByTestId('item-category').click();
  await c.keyboard.type('护肤');
  await c
    .locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper')
    .filter({ hasText: '护肤品' })
    .click();
  await expect(c.getByText('请选择类别，或填写新类别')).toHaveCount(0);
  await c.getByTestId('item-taxCode').click();
  await c.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '04010100' }).click();

  // A text file named .png is refused by its content, in words, and no image is kept.
  const chooser = c.waitForEvent('filechooser');
  await c.getByTestId('image-upload').click();
  await (await chooser).setFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
  await expect(c.getByTestId('image-error')).toBeVisible();
  await expect(c.getByTestId('image-error')).toContainText('图片不可用');
  await expect(c.getByTestId('image-preview')).toHaveCount(0);
  // A real PNG: previewed.
  const chooser2 = c.waitForEvent('filechooser');
  await c.getByTestId('image-upload').click();
  await (await chooser2).setFiles({ name: 'cream.png', mimeType: 'image/png', buffer: png() });
  await expect(c.getByTestId('image-preview')).toBeVisible();
  await expect(c.getByTestId('image-error')).toHaveCount(0);
  // A double click creates once (issue 36 #22: the second create was refused as a duplicate JAN, in red).
  const creates: string[] = [];
  c.on('request', (r) => {
    if (r.url().endsWith('/item/create')) creates.push(r.url());
  });
  await c.getByTestId('item-submit').dblclick();
  await expect(c.getByTestId('item-info')).toBeVisible();
  expect(creates).toHaveLength(1);
  await expect(c.locator('.ant-message-error')).toHaveCount(0);
  await expect(c.getByTestId('item-info').getByTestId('item-status')).toHaveText('待审核');

  const [created] = (await listItems(request, customer.token, { jan })).list;
  expect(created).toMatchObject({
    jan,
    nameZh: '保湿面霜',
    status: 'pending',
    clearancePrice: '120.50',
    group: '护肤',
  });
  expect(created!.imageId).toBeTruthy();
  // The info page shows the image through the client (not a public URL).
  await expect(c.getByTestId('item-thumb').locator('img')).toHaveAttribute('src', /^blob:/);

  // The operator fails it with a reason, from the list.
  const o = operator.page;
  await o.goto(`${MAIN}/home/item/list`);
  await filterByJan(o, jan);
  await expect(o.getByTestId('item-table').getByTestId('item-thumb').first()).toBeVisible();
  await o.getByTestId(`fail-${created!.id}`).click();
  await o.getByTestId('fail-ok').click();
  await expect(o.getByText('请填写不通过的原因')).toBeVisible();
  await o.getByTestId('fail-reason').fill('申报要素缺少材质');
  await o.getByTestId('fail-ok').click();
  await expect(o.locator('.ant-message')).toContainText('已标记为不通过');
  await expect.poll(async () => (await itemDetail(request, customer.token, created!.id)).status).toBe('failed');

  // The customer finds it in the failed list with its reason, fixes it and resubmits.
  await c.goto(`${MAIN}/home/item/noPassItem`);
  await filterByJan(c, jan);
  const row = c.getByTestId('item-table').locator(`tr[data-row-key="${created!.id}"]`);
  await expect(row.getByTestId('item-reason')).toHaveText('申报要素缺少材质');
  await row.getByTestId(`edit-${created!.id}`).click();
  await expect(c.getByTestId('update-reason')).toContainText('申报要素缺少材质');
  const upd = c.getByTestId('item-update');
  await expect(upd.getByTestId('item-jan')).toHaveValue(jan);
  await upd.getByTestId('item-essentials').fill('品牌：DEMO；材质：乳霜；规格：50g');
  await upd.getByTestId('item-submit').click();
  await expect(c.getByTestId('item-info')).toBeVisible();
  await expect(c.getByTestId('item-info').getByTestId('item-status')).toHaveText('待审核');
  const resubmitted = await itemDetail(request, customer.token, created!.id);
  expect(resubmitted).toMatchObject({ status: 'pending', reason: null });
  // No longer in the failed list.
  await c.goto(`${MAIN}/home/item/noPassItem`);
  await c.getByTestId('list-jan').fill(jan);
  await c.getByTestId('list-search').click();
  await expect(c.getByTestId(`item-${jan}`)).toHaveCount(0);

  // Customers see no review actions.
  await c.goto(`${MAIN}/home/item/list`);
  await filterByJan(c, jan);
  await expect(c.getByTestId(`approve-${created!.id}`)).toHaveCount(0);
  await expect(c.getByTestId(`fail-${created!.id}`)).toHaveCount(0);
  await expect(c.getByTestId(`adjust-${created!.id}`)).toHaveCount(0);

  // The operator approves.
  await o.getByTestId('list-search').click();
  await o.getByTestId(`approve-${created!.id}`).click();
  await o.getByTestId('approve-ok').click();
  await expect(o.locator('.ant-message')).toContainText('已通过');
  await expect.poll(async () => (await itemDetail(request, customer.token, created!.id)).status).toBe('approved');

  // The operator adjusts the clearance price.
  await o.getByTestId(`adjust-${created!.id}`).click();
  const dialog = o.getByRole('dialog');
  await dialog.getByTestId('item-clearancePrice').fill('98.00');
  await dialog.getByTestId('adjust-note').fill('按海关估价调整');
  await dialog.getByTestId('adjust-ok').click();
  await expect(o.locator('.ant-message')).toContainText('等待采纳');
  const adjusted = await itemDetail(request, customer.token, created!.id);
  const adj = adjusted.adjustments.find((a) => a.status === 'pending');
  expect(adj?.changes).toEqual([{ field: 'clearancePrice', before: '120.50', after: '98.00' }]);

  // The customer adopts it on the unAdopt page, after a confirmation.
  await c.goto(`${MAIN}/home/unAdopt`);
  const adjRow = c.getByTestId('adj-table').locator(`tr[data-row-key="${adj!.id}"]`);
  await expect(adjRow.getByTestId('change-clearancePrice')).toContainText('120.50');
  await expect(adjRow.getByTestId('change-clearancePrice')).toContainText('98.00');
  await expect(adjRow).toContainText('按海关估价调整');
  await adjRow.getByTestId(`adopt-${adj!.id}`).click();
  await c.getByTestId('adopt-ok').click();
  await expect(c.locator('.ant-message')).toContainText('已采纳');
  await expect(adjRow).toHaveCount(0);
  const adopted = await itemDetail(request, customer.token, created!.id);
  expect(adopted.clearancePrice).toBe('98.00');
  expect(adopted.adjustments.find((a) => a.id === adj!.id)?.status).toBe('adopted');

  // Item info shows the whole history, in order.
  await c.goto(`${MAIN}/home/item/info?id=${created!.id}`);
  const history = c.getByTestId('info-history');
  for (const kind of ['created', 'failed', 'resubmitted', 'approved', 'adjusted', 'adopted'])
    await expect(history.getByTestId(`history-${kind}`).first()).toBeVisible();
  await expect(history.getByTestId('history-failed')).toContainText('申报要素缺少材质');

  expect(customer.errors).toEqual([]);
  expect(operator.errors).toEqual([]);
  await customer.close();
  await operator.close();
});

test('an adjustment rejected on the unAdopt page leaves the item as it was, with the reason recorded', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const customer = await as(browser, request, 'demo');
  const operatorToken = await apiLogin(request, 'operator');
  const item = await createItem(request, customer.token, { clearancePrice: '50.00' });
  expect((await aesApi(request, 'item/approve', { id: item.id }, operatorToken)).status).toBe(200);
  const adjusted = await aesApi<{ id: number }>(
    request,
    'item/adjust',
    { id: item.id, changes: { clearancePrice: '10.00' }, note: '价格偏高' },
    operatorToken,
  );
  expect(adjusted.status, JSON.stringify(adjusted.body)).toBe(200);
  const adjId = adjusted.body.data.id;

  const c = customer.page;
  await c.goto(`${MAIN}/home/unAdopt`);
  const row = c.getByTestId('adj-table').locator(`tr[data-row-key="${adjId}"]`);
  await expect(row.getByTestId('change-clearancePrice')).toContainText('10.00');
  await row.getByTestId(`reject-${adjId}`).click();
  await c.getByTestId('reject-reason').fill('价格有发票为证');
  await c.getByTestId('reject-ok').click();
  await expect(c.locator('.ant-message')).toContainText('已拒绝');
  await expect(row).toHaveCount(0);
  const after = await itemDetail(request, customer.token, item.id);
  expect(after.clearancePrice).toBe('50.00');
  expect(after.status).toBe('approved');
  expect(after.adjustments.find((a) => a.id === adjId)?.status).toBe('rejected');
  // The info page names the decision and its reason.
  await c.goto(`${MAIN}/home/item/info?id=${item.id}`);
  await expect(c.getByTestId('info-adjustments')).toContainText('价格有发票为证');
  await expect(c.getByTestId(`adj-status-${adjId}`)).toHaveText('已拒绝');
  expect(customer.errors).toEqual([]);
  await customer.close();
});

test('an agent creates an item for one of its customers, in English', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('1.21.2-locale', JSON.stringify('en')));
  const token = await loginByCookie(context, request, 'agent');
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  const jan = uniqueJan();
  await page.goto(`${MAIN}/home/item/create`);
  const form = page.getByTestId('item-create');
  await form.getByTestId('item-jan').fill(wrongDigit(jan));
  await expect(page.getByText(`Wrong JAN check digit: the last digit should be ${jan.at(-1)}`)).toBeVisible();
  await form.getByTestId('item-jan').fill(jan);
  await form.getByTestId('item-submit').click();
  await expect(page.getByText('Customer is required')).toBeVisible();
  await form.getByTestId('item-customer').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
  await form.getByTestId('item-nameZh').fill('代理商品');
  await form.getByTestId('item-newCategory').fill('Tea ware');
  await form.getByTestId('item-netWeight').fill('300');
  await form.getByTestId('item-clearancePrice').fill('60');
  await form.getByTestId('item-declarationPrice').fill('1200');
  const chooser = page.waitForEvent('filechooser');
  await form.getByTestId('image-upload').click();
  await (await chooser).setFiles({ name: 'cup.png', mimeType: 'image/png', buffer: png(32, 32) });
  await expect(form.getByTestId('image-preview')).toBeVisible();
  await form.getByTestId('item-submit').click();
  await expect(page.getByTestId('item-info').getByTestId('item-status')).toHaveText('Pending review');
  const [row] = (await listItems(request, token, { jan })).list;
  expect(row).toMatchObject({ jan, nameZh: '代理商品', status: 'pending' });
  expect(row!.imageId).toBeTruthy();
  expect(errors).toEqual([]);
  await context.close();
});
