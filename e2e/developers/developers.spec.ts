/**
 * The Developers menu (issue 39 item 5) as a customer clicks it: an API key is made, its whole
 * key shown once (then only its prefix), used on v1 and revoked after a confirmation (v1 then
 * refuses it); a webhook endpoint on a real local receiver is made, its secret shown once, a
 * test event is sent, and the delivery shows in the log as succeeded. The admin sees a customer's
 * endpoint with its customer, cannot make or change one, and disables it after a confirmation.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect as baseExpect, test } from '../support/test.ts';
import { MAIN } from '../servers.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';
import { watchPageErrors } from '../support/tables.ts';

const expect = baseExpect.configure({ timeout: 30_000 });

test('API key: made, shown once, used, revoked', async ({ browser, request }) => {
  const context = await browser.newContext();
  await loginByCookie(context, request, 'demo');
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  await page.goto(`${MAIN}/home/developer/apiKeys`);
  const name = `e2e ${Date.now().toString(36)}`;
  await page.getByTestId('key-new').click();
  await page.getByTestId('key-name').fill(name);
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /创\s*建|Create/ })
    .click();

  const secret = page.getByTestId('secret-value');
  await expect(secret).toBeVisible();
  const key = (await secret.textContent())!.trim();
  expect(key).toMatch(/^ck_live_[a-z2-7]{8}_/);
  await page.getByTestId('secret-done').click();
  await expect(secret).toBeHidden();

  // Listed by its prefix only: the whole key is nowhere on the page any more.
  const prefix = key.split('_').slice(0, 3).join('_');
  const row = page.locator(`[data-key-prefix="${prefix}"]`);
  await expect(row).toContainText(name);
  await expect(page.locator('body')).not.toContainText(key);
  const v1 = () => request.get(`${MAIN}/api/v1/orders?limit=1`, { headers: { authorization: `Bearer ${key}` } });
  expect((await v1()).status()).toBe(200);

  await row.getByTestId('key-revoke').click();
  await page.getByTestId('key-revoke-ok').click();
  await expect(row).toBeHidden();
  expect((await v1()).status()).toBe(401);
  expect(errors).toEqual([]);
  await context.close();
});

test("an agent's key limited to some customers lists them by code, not by id", async ({ browser, request }) => {
  const context = await browser.newContext();
  const token = await loginByCookie(context, request, 'agent');
  const customers = (await api<{ id: number; code: string }[]>(request, 'customers', {}, token)).body.data;
  const one = customers[0]!;
  const made = await api<{ id: number; prefix: string }>(
    request,
    'apiKey/create',
    { name: `e2e limited ${Date.now().toString(36)}`, scopes: ['orders:read'], customerIds: [one.id] },
    token,
  );
  expect(made.status).toBe(200);
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  await page.goto(`${MAIN}/home/developer/apiKeys`);
  const row = page.locator(`[data-key-prefix="${made.body.data.prefix}"]`);
  await expect(row.getByTestId('key-customer')).toHaveText([one.code]);
  await api(request, 'apiKey/revoke', { id: made.body.data.id }, token);
  expect(errors).toEqual([]);
  await context.close();
});

test('the key list filters and sorts on the server, and a reload keeps both', async ({ browser, request }) => {
  const context = await browser.newContext();
  const token = await loginByCookie(context, request, 'demo2');
  const tag = `pg${Date.now().toString(36)}`;
  const made: number[] = [];
  for (const n of ['b', 'c', 'a']) {
    const r = await api<{ id: number }>(
      request,
      'apiKey/create',
      { name: `${tag} ${n}`, scopes: ['orders:read'] },
      token,
    );
    expect(r.status).toBe(200);
    made.push(r.body.data.id);
  }
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  await page.goto(`${MAIN}/home/developer/apiKeys`);
  await page.getByTestId('key-keyword').fill(tag);
  await page.getByTestId('key-search').click();
  const names = page.getByTestId('key-table').locator('tbody tr[data-key-prefix] td:first-child');
  // Newest first by default.
  await expect(names).toHaveText([`${tag} a`, `${tag} c`, `${tag} b`]);
  await page.getByRole('columnheader', { name: /名称|Name/ }).click();
  await expect(names).toHaveText([`${tag} a`, `${tag} b`, `${tag} c`]);
  await page.reload();
  await expect(names).toHaveText([`${tag} a`, `${tag} b`, `${tag} c`]);
  await expect(page.getByTestId('key-keyword')).toHaveValue(tag);
  for (const id of made) await api(request, 'apiKey/revoke', { id }, token);
  expect(errors).toEqual([]);
  await context.close();
});

test('webhook endpoint: made on a local receiver, test event delivered and logged', async ({ browser, request }) => {
  const received: string[] = [];
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['webhook-id']));
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  try {
    const context = await browser.newContext();
    await loginByCookie(context, request, 'demo');
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${MAIN}/home/developer/webhooks`);
    await page.getByTestId('endpoint-new').click();
    await page.getByTestId('endpoint-url').fill(url);
    await page.getByTestId('endpoint-events').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: /^order\.created$/ })
      .click();
    await page.keyboard.press('Escape');
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /创\s*建|Create/ })
      .click();

    await expect(page.getByTestId('secret-value')).toHaveText(/^whsec_/);
    await page.getByTestId('secret-done').click();

    const row = page.locator(`[data-endpoint-url="${url}"]`);
    await row.getByTestId('endpoint-test').click();
    await expect.poll(() => received.length).toBe(1);
    await row.getByTestId('endpoint-deliveries').click();
    const log = page.getByTestId('webhook-deliveries');
    const delivered = log.locator('[data-event-type="webhook.test"][data-delivery-status="succeeded"]');
    // The log is read when opened; the delivery's status is written just after the receiver answers.
    await expect(async () => {
      await log.getByTestId('delivery-refresh').click();
      await expect(delivered).toHaveCount(1, { timeout: 2_000 });
    }).toPass();
    await expect(log).toContainText(received[0]!);
    // A customer's own log has no customer column.
    await expect(log.locator('[data-delivery-customer]')).toHaveCount(0);
    expect(errors).toEqual([]);
    await context.close();
  } finally {
    receiver.close();
  }
});

test("the admin sees a customer's endpoint with its customer, and may only disable it", async ({
  browser,
  request,
}) => {
  const demo = await apiLogin(request, 'demo');
  const url = `http://127.0.0.1:9/admin-view-${Date.now()}`;
  const made = await api<{ id: number }>(
    request,
    'webhook/endpoint/create',
    { url, description: 'seen by the admin', eventTypes: ['order.shipped'] },
    demo,
  );
  expect(made.status).toBe(200);
  // A delivery of demo's in the admin's log (the target refuses it; the row is what counts).
  const sent = await api<{ deliveryId: number }>(request, 'webhook/endpoint/test', { id: made.body.data.id }, demo);
  expect(sent.status).toBe(200);
  const context = await browser.newContext();
  await loginByCookie(context, request, 'admin');
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  await page.goto(`${MAIN}/home/developer/webhooks`);
  const row = page.locator(`[data-endpoint-url="${url}"]`);
  await expect(row).toContainText('DEMO');
  await expect(page.getByTestId('endpoint-new')).toHaveCount(0);
  await expect(row.getByTestId('endpoint-edit')).toHaveCount(0);
  await expect(row.getByTestId('endpoint-rotate')).toHaveCount(0);
  // The admin's log holds every customer's deliveries: each row says whose.
  await row.getByTestId('endpoint-deliveries').click();
  const log = page.getByTestId('webhook-deliveries');
  await expect(log.locator('[data-event-type="webhook.test"]')).toHaveAttribute('data-delivery-customer', 'DEMO');
  await expect(log.getByRole('columnheader', { name: /客户|Customer/ })).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(log).toHaveCount(0);
  await row.getByTestId('endpoint-disable').click();
  await page.getByTestId('endpoint-disable-ok').click();
  await expect(row.getByTestId('endpoint-disable')).toHaveCount(0);
  const mine = await api<{ list: { id: number; active: boolean }[] }>(request, 'webhook/endpoint/list', {}, demo);
  expect(mine.body.data.list.find((e) => e.id === made.body.data.id)?.active).toBe(false);
  expect(errors).toEqual([]);
  await context.close();
});
