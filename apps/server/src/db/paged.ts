import { sql, type SelectQueryBuilder } from 'kysely';
import { pageTotal } from './page-total.ts';

/**
 * One page of a filtered list and its total: the shape every list repository had written out
 * again (issue 40 #5). `ordered` selects the page's columns and orders them, ending on a unique
 * key so pages neither overlap nor skip; the total is counted only when the page cannot tell it
 * (page-total.ts), so most pages cost one query, not two.
 */
export async function pageOf<DB, TB extends keyof DB, O>(
  filtered: SelectQueryBuilder<DB, TB, object>,
  ordered: (q: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
  at: { offset: number; limit: number },
): Promise<{ total: number; rows: O[] }> {
  const rows = await ordered(filtered).offset(at.offset).limit(at.limit).execute();
  const total = await pageTotal(at.offset, at.limit, rows.length, async () => {
    const r = await filtered.select(sql<number | string>`count(*)`.as('n')).executeTakeFirstOrThrow();
    return Number((r as { n: number | string }).n);
  });
  return { total, rows: rows as O[] };
}
