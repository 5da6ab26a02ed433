/**
 * Export nomination on the import pages (issue 4): the select lists the nominations of the
 * customer the import is for (the agent's choice, or the customer itself); the one chosen is
 * sent with the upload and recorded on the batch and on every order it creates.
 */
import { expect, test, type APIRequestContext, type Page } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { fillTemplate, importRow } from '../support/import.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';

type Nomination = { id: number; nameJa: string; nameEn: string; corporateNumber: string; customerId: number };
type Customer = { id: number; code: string; name: string };

const options = (page: Page) => page.locator('.ant-select-dropdown:visible .ant-select-item-option');

/** Downloads the page's template, fills one valid row, uploads it and confirms; answers the batch number. */
async function importOne(page: Page, orderNo: string): Promise<string> {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-template').click()]);
  const buffer = await fillTemplate(await dl.path(), [importRow(orderNo)]);
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'orders.xlsx', mimeType: 'application/octet-stream', buffer });
  await expect(page.getByTestId('confirm')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('confirm').click();
  await expect(page.getByTestId('done')).toBeVisible({ timeout: 30_000 });
  return /B\d+/.exec(await page.getByTestId('done').innerText())![0];
}

/** The nomination recorded on the batch (the batch list) and on each of its orders (order detail). */
async function recorded(request: APIRequestContext, token: string, batchNo: string) {
  const batches = await api<{ list: { batchNo: string; exportNomination: { id: number } | null }[] }>(
    request,
    'order/batches',
    { offset: 0, limit: 10, batchNo },
    token,
  );
  const batch = { id: batches.body.data.list.find((b) => b.batchNo === batchNo)?.exportNomination?.id ?? null };
  const list = await api<{ list: { id: number }[] }>(
    request,
    'order/orderList',
    { offset: 0, limit: 50, order: 'desc', noType: 'batchNo', numbers: batchNo },
    token,
  );
  expect(list.body.data.list.length).toBeGreaterThan(0);
  const orders = await Promise.all(
    list.body.data.list.map(
      async (o) => (await api<{ exportNominationId: number | null }>(request, 'order/order', { id: o.id }, token)).body,
    ),
  );
  return { batch: batch.id, orders: orders.map((o) => o.data.exportNominationId) };
}

test('an agent chooses DEMO2, then one of DEMO2’s export nominations: the batch and its orders record it', async ({
  page,
  context,
  request,
}) => {
  const agent = await loginByCookie(context, request, 'agent');
  const customers = (await api<Customer[]>(request, 'customers', {}, agent)).body.data;
  const [demo, demo2] = ['DEMO', 'DEMO2'].map((code) => customers.find((c) => c.code === code)!);
  const nominations = (await api<Nomination[]>(request, 'exports', {}, agent)).body.data;
  const ofDemo = nominations.filter((n) => n.customerId === demo!.id);
  const ofDemo2 = nominations.filter((n) => n.customerId === demo2!.id);
  expect(ofDemo.length).toBeGreaterThan(0);
  expect(ofDemo2.length).toBeGreaterThan(0);
  const label = (n: Nomination) => `${n.nameJa} (${n.corporateNumber})`;

  await page.goto(`${MAIN}/home/order/createImport`);
  const select = page.getByTestId('export-nomination');
  // No customer yet: nothing to choose from.
  await expect(select).toHaveClass(/ant-select-disabled/);

  await page.getByTestId('customer').click();
  await options(page)
    .filter({ hasText: /^DEMO / })
    .click();
  await select.click();
  await expect(options(page)).toHaveText(ofDemo.map(label));
  await options(page).first().click();
  await expect(select).toContainText(label(ofDemo[0]!));

  // Another customer: the choice is dropped and only its own nominations are offered.
  await page.getByTestId('customer').click();
  await options(page).filter({ hasText: 'DEMO2' }).click();
  await expect(select).not.toContainText(label(ofDemo[0]!));
  await select.click();
  await expect(options(page)).toHaveText(ofDemo2.map(label));
  await options(page)
    .filter({ hasText: label(ofDemo2[0]!) })
    .click();
  await expect(select).toContainText(label(ofDemo2[0]!));

  const batchNo = await importOne(page, `E2EN${Date.now() % 1e8}`);
  const demo2Token = await apiLogin(request, 'demo2');
  expect(await recorded(request, demo2Token, batchNo)).toEqual({ batch: ofDemo2[0]!.id, orders: [ofDemo2[0]!.id] });

  // The Batch List names it.
  await page.goto(`${MAIN}/home/order/batchList`);
  await expect(page.getByTestId('batch-table').getByRole('row').filter({ hasText: batchNo })).toContainText(
    ofDemo2[0]!.nameEn,
  );
});

test('a customer sees its own nominations without choosing a customer; EMS page too', async ({
  page,
  context,
  request,
}) => {
  const token = await loginByCookie(context, request, 'demo');
  const own = (await api<Nomination[]>(request, 'exports', {}, token)).body.data;
  expect(own.length).toBeGreaterThan(0);
  const label = (n: Nomination) => `${n.nameJa} (${n.corporateNumber})`;

  await page.goto(`${MAIN}/home/order/createImport`);
  await expect(page.getByTestId('customer')).toHaveCount(0);
  await page.getByTestId('export-nomination').click();
  await expect(options(page)).toHaveText(own.map(label));
  await options(page).first().click();
  const batchNo = await importOne(page, `E2EC${Date.now() % 1e8}`);
  expect(await recorded(request, token, batchNo)).toEqual({ batch: own[0]!.id, orders: [own[0]!.id] });

  // The EMS import page has the same select.
  await page.goto(`${MAIN}/home/order/createImportEms`);
  await page.getByTestId('export-nomination').click();
  await expect(options(page)).toHaveText(own.map(label));
});
