import { beforeAll, expect, it } from 'vitest';
import { pageOf } from '../../src/db/paged.ts';
import { createHarness, type Harness } from '../harness.ts';

/**
 * pageOf, the one paged-list shape of the repositories (issue 40 #5), on the real database of the
 * run (SQLite, or PostgreSQL with TEST_DATABASE_URL): every page of a list, walked in order, is
 * the whole list once, and every page says the whole list's total.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ seed: true });
});

it('walks the seeded customers one by one: each once, in order, each page with the total', async () => {
  const all = await h.db.selectFrom('customers').select('id').orderBy('id').execute();
  expect(all.length).toBeGreaterThan(1);
  const filtered = h.db.selectFrom('customers');
  const seen: number[] = [];
  for (let offset = 0; offset < all.length + 1; offset += 1) {
    const page = await pageOf(filtered, (q) => q.select('id').orderBy('id', 'asc'), { offset, limit: 1 });
    expect(page.total).toBe(all.length);
    seen.push(...page.rows.map((r) => r.id));
  }
  expect(seen).toEqual(all.map((r) => r.id));
  // A filter the page's query keeps: only the matching rows, and their total.
  const one = await pageOf(
    h.db.selectFrom('customers').where('id', '=', all[1]!.id),
    (q) => q.select('id').orderBy('id'),
    { offset: 0, limit: 2 },
  );
  expect(one).toEqual({ total: 1, rows: [{ id: all[1]!.id }] });
});
