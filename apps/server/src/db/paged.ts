import { type Kysely, sql, type SelectQueryBuilder } from 'kysely';
import { readRouted } from './database.ts';
import { pageTotal } from './page-total.ts';

/**
 * One page of a filtered list and its total: the shape every list repository had written out
 * again (issue 40 #5). `ordered` selects the page's columns and orders them, ending on a unique
 * key so pages neither overlap nor skip; the total is counted only when the page cannot tell it
 * (page-total.ts), so most pages cost one query, not two.
 *
 * `routed`: the database `filtered` was built on, for a console list page whose page and count may
 * be read on the replica (DATABASE_READ_URL, read-your-own-writes: database.ts `readRouted`).
 * Never for a query built on a transaction: its reads must see the transaction's own writes.
 */
export async function pageOf<DB, TB extends keyof DB, O>(
  filtered: SelectQueryBuilder<DB, TB, object>,
  ordered: (q: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
  at: { offset: number; limit: number },
  routed?: Kysely<any>,
): Promise<{ total: number; rows: O[] }> {
  const pageQuery = ordered(filtered).offset(at.offset).limit(at.limit);
  const rows = routed ? await readRouted(routed, pageQuery.compile()) : await pageQuery.execute();
  const total = await pageTotal(at.offset, at.limit, rows.length, async () => {
    const countQuery = filtered.select(sql<number | string>`count(*)`.as('n'));
    const r = routed ? (await readRouted(routed, countQuery.compile()))[0] : await countQuery.executeTakeFirstOrThrow();
    return Number((r as { n: number | string }).n);
  });
  return { total, rows: rows as O[] };
}
