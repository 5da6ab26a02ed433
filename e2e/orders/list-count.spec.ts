/**
 * The order list's count past its bound (issue 29): the server stops counting at the next 1,000
 * past the page, the table says "1,000+" and still pages on; the page that reaches past the
 * bound gets the exact count. On the SHORT_TTL server, with a customer of its own whose 1,050
 * orders are written into its file (no other spec reads them).
 */
import { expect, test } from '../support/test.ts';
import { SHORT_TTL, dbFile } from '../servers.ts';
import { withDb } from '../support/db.ts';
import { totalText } from '../support/orders.ts';
import { loginByCookie } from '../support/session.ts';

const ORDERS = 1_050;

/** A customer COUNT29 with a user `count29` (demo's password, demo's read notices) and its orders, once. */
function ensureCustomerWithOrders() {
  withDb(dbFile('short-ttl'), (db) => {
    if (db.prepare("SELECT 1 FROM customers WHERE code = 'COUNT29'").get()) return;
    const at = new Date().toISOString();
    const demo = db.prepare("SELECT id, password_hash FROM users WHERE name = 'demo'").get() as {
      id: number;
      password_hash: string;
    };
    db.exec('BEGIN IMMEDIATE');
    const customer = Number(
      db.prepare("INSERT INTO customers (code, name, created_at) VALUES ('COUNT29', 'COUNT29', ?)").run(at)
        .lastInsertRowid,
    );
    const user = Number(
      db
        .prepare(
          "INSERT INTO users (name, display_name, password_hash, role, customer_id, created_at, password_changed_at) VALUES ('count29', 'COUNT29', ?, 'customer', ?, ?, ?)",
        )
        .run(demo.password_hash, customer, at, at).lastInsertRowid,
    );
    db.prepare(
      'INSERT INTO notice_reads (notice_id, user_id, read_at, agreed_at) SELECT notice_id, ?, read_at, agreed_at FROM notice_reads WHERE user_id = ?',
    ).run(user, demo.id);
    const insert = db.prepare(
      `INSERT INTO orders (customer_id, channel_code, order_no, system_no, status, recipient_name, recipient_id_card,
         recipient_phone, recipient_province, recipient_city, recipient_district, recipient_address, currency, created_at, updated_at)
       VALUES (?, 'JP', ?, ?, ?, '王伟', '11010519900101123X', '13800000000', '浙江省', '杭州市', '西湖区', '文三路1号', 'JPY', ?, ?)`,
    );
    for (let i = 0; i < ORDERS; i++) {
      const created = new Date(Date.UTC(2026, 9, 1) + i * 60_000).toISOString();
      insert.run(customer, `C29-${i}`, `SC29-${i}`, i % 100 === 0 ? 'shipped' : 'created', created, created);
    }
    db.exec('COMMIT');
  });
}

test('Order List past 1,000 matches shows "1,000+", pages on, and counts exactly deeper', async ({
  page,
  context,
  request,
}) => {
  ensureCustomerWithOrders();
  await loginByCookie(context, request, 'count29', SHORT_TTL);
  const table = page.getByTestId('order-table');
  const pages = table
    .locator('xpath=ancestor-or-self::div[contains(concat(" ", @class, " "), " ant-table-wrapper ")]')
    .locator('.ant-pagination');
  const first = page.waitForResponse((r) => r.url().endsWith('/api/order/orderList') && r.status() === 200);
  await page.goto(`${SHORT_TTL}/home/order/list`);
  expect(((await (await first).json()) as { data: { total: number; exact: boolean } }).data).toMatchObject({
    total: 1_000,
    exact: false,
  });
  await expect(totalText(table)).toHaveText('1,000+');
  // Newest first: the last order written heads the list.
  await expect(table.locator('tbody tr.ant-table-row').first()).toContainText(`C29-${ORDERS - 1}`);
  // Fifty pages of 20 under the bound; the fiftieth reaches past it and counts on.
  await expect(pages.locator('.ant-pagination-item-50')).toBeVisible();
  await expect(pages.locator('.ant-pagination-item-51')).toHaveCount(0);
  const deep = page.waitForResponse(
    // 200 only: the 5 s token may lapse first, and the call is replayed after its refresh.
    (r) => r.url().endsWith('/api/order/orderList') && r.status() === 200 && r.request().postDataJSON()?.offset === 980,
  );
  await pages.locator('.ant-pagination-item-50').click();
  expect(((await (await deep).json()) as { data: { total: number; exact: boolean } }).data).toMatchObject({
    total: ORDERS,
    exact: true,
  });
  await expect(totalText(table)).toHaveText(ORDERS.toLocaleString('en-US'));
  await expect(pages.locator('.ant-pagination-item-53')).toBeVisible();
  await expect(table.locator('tbody tr.ant-table-row').first()).toContainText(`C29-${ORDERS - 1 - 980}`);
});
