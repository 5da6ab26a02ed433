/**
 * Direct fixture writes to a test server's SQLite file, for states the API cannot create
 * in a test's time (over 999 error orders) or by design (a role without a permission).
 * Only used on the SHORT_TTL server, whose data no other spec relies on.
 */
import { DatabaseSync } from 'node:sqlite';

export function withDb<T>(file: string, fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(file);
  try {
    // A write transaction must start as one (BEGIN IMMEDIATE below): a deferred one that reads
    // first cannot wait for the server's writer (its busy handler is skipped, SQLITE_BUSY at once),
    // and the server writes every second (the webhook relay's schedule).
    db.exec('PRAGMA busy_timeout = 15000');
    return fn(db);
  } finally {
    db.close();
  }
}

/** Clones a customer's error orders until it has at least `atLeast` of them. */
export function ensureErrorOrders(file: string, userName: string, atLeast: number): number {
  return withDb(file, (db) => {
    const user = db.prepare('SELECT customer_id FROM users WHERE name = ?').get(userName) as { customer_id: number };
    const count = () =>
      (
        db
          // As the error list counts them (issue 13): the live flags of orders not cancelled.
          .prepare(
            "SELECT count(*) AS n FROM orders WHERE customer_id = ? AND error_reason IS NOT NULL AND status <> 'cancelled'",
          )
          .get(user.customer_id) as { n: number }
      ).n;
    const cols = (db.prepare('PRAGMA table_info(orders)').all() as { name: string }[])
      .map((c) => c.name)
      .filter((c) => c !== 'id');
    const select = cols.map((c) =>
      c === 'order_no' || c === 'system_no' ? `${c} || '-E' || :n` : c === 'waybill_no' ? 'NULL' : c,
    );
    const insert = db.prepare(
      // OR IGNORE: clones made by an earlier spec may since have been fixed, so numbering restarts past them.
      `INSERT OR IGNORE INTO orders (${cols.join(', ')}) SELECT ${select.join(', ')} FROM orders
       WHERE customer_id = :customer AND error_reason IS NOT NULL AND order_no NOT LIKE '%-E%'`,
    );
    db.exec('BEGIN IMMEDIATE');
    for (let n = 1; count() < atLeast && n < 10_000; n++) insert.run({ n: String(n), customer: user.customer_id });
    db.exec('COMMIT');
    return count();
  });
}

export function revokePermission(file: string, role: string, routes: string[]) {
  withDb(file, (db) => {
    const del = db.prepare('DELETE FROM role_permissions WHERE role = ? AND route_name = ?');
    for (const r of routes) del.run(role, r);
  });
}
