import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../src/config.ts';
import { createDatabase, type Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createOrderListRepository } from '../src/modules/orders/orders.list.repository.ts';
import type { Scope } from '../src/lib/scope.ts';

/**
 * Issue 29 (docs/decisions/2026-11-27-order-list-covering-indexes.md): the order list's count
 * and its page's ids read `orders` through an index that holds every column its filters test,
 * so a filter the sort index does not lead with costs no read of the order's row (0.4–1.6 s at
 * 1M orders when it did). This asks SQLite's planner — the embedded default, whose plans the
 * indexes were chosen for — about the SQL the repository really sends: its queries are caught
 * on their way to the database and explained there. A filter added to the list without its
 * column in those indexes fails here.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-order-list-plans-'));
let db: Database;
const sent: CompiledQuery[] = [];
let repo: ReturnType<typeof createOrderListRepository>;
beforeAll(async () => {
  db = createDatabase(
    testConfig({ DATABASE_URL: path.join(dir, 'plans.sqlite'), DATA_DIR: dir, READER_THREADS: '0' }).database,
  );
  await migrateToLatest(db);
  // The repository's database, with every query it sends recorded on the way.
  const recording = new Proxy(db, {
    get(target, prop) {
      if (prop === 'executeQuery')
        return (q: CompiledQuery) => {
          sent.push(q);
          return target.executeQuery(q);
        };
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  repo = createOrderListRepository(recording);
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** How SQLite reads `orders as o` in each query sent by one list call. */
async function ordersReads(scope: Scope, body: Record<string, unknown>): Promise<string[]> {
  sent.length = 0;
  await repo.listPage(scope, { offset: 0, limit: 20, order: 'desc', sort: 'createdAt', ...body } as never);
  expect(sent).toHaveLength(2);
  const reads: string[] = [];
  for (const q of sent) {
    const plan = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]),
    );
    reads.push(...plan.rows.map((r) => r.detail).filter((d) => /^(SCAN|SEARCH) o\b/.test(d)));
  }
  return reads;
}

const operator: Scope = { all: true };
const customer: Scope = { all: false, customerIds: [1] };
const agent: Scope = { all: false, customerIds: [1, 2] };
const FILTERS: Record<string, unknown>[] = [
  { status: 'received', printFlag: false },
  { status: 'cancelled', channel: 'JP' },
  { channel: 'PH', released: true },
  { status: 'printed', recipientName: '王丽', printFlag: true },
  { customerId: 1, status: 'shipped', channel: 'USA' },
];
const SORTS = ['createdAt', 'status', 'channel', 'printCount'];

describe('the order list reads no order row to test a filter', () => {
  for (const [who, scope] of [
    ['operator', operator],
    ['customer', customer],
    ['agent', agent],
  ] as const) {
    for (const filter of FILTERS) {
      for (const sort of SORTS) {
        it(`${who}, ${JSON.stringify(filter)}, sorted by ${sort}`, async () => {
          const reads = await ordersReads(scope, { ...filter, sort });
          // The count and the page's ids: from a covering index; the page's rows: by id.
          expect(reads.length).toBeGreaterThanOrEqual(2);
          for (const read of reads) expect(read).toMatch(/COVERING INDEX|INTEGER PRIMARY KEY/);
          expect(reads.filter((r) => r.includes('COVERING INDEX')).length).toBeGreaterThanOrEqual(2);
        });
      }
    }
  }
});

it('the check can fail: a filter on a column no list index holds reads rows', async () => {
  const plan = await sql<{ detail: string }>`explain query plan
    select count(*) from (select 1 from orders o where o.status = 'received' and o.remark = 'x' limit 1001)`.execute(
    db,
  );
  expect(plan.rows.map((r) => r.detail).join(' ')).not.toMatch(/COVERING INDEX/);
});

it("an agent's newest-first page reads a creation-time index, which gives its order, not the print count one", async () => {
  const reads = await ordersReads(agent, {});
  const page = reads.filter((r) => r.includes('COVERING INDEX')).at(-1)!;
  expect(page).toMatch(/COVERING INDEX orders_(customer_)?created_cover/);
});
