import type { Database } from '../../db/database.ts';
import type { CatalogueEntry } from '../../domain/pricing/tax-estimate.ts';
import { nextTurn } from '../../db/next-turn.ts';
import { createCatalogueRepository } from './items.catalogue.repository.ts';

/** JANs per query: far below SQLite's and PostgreSQL's bound-parameter limits. */
const JANS_PER_QUERY = 500;

/**
 * The customer's catalogue as orders see it (issue 12): status and tax data of many JANs at
 * once, one query per chunk of distinct JANs — a 100,000-row import asks for its JANs in a few
 * hundred queries, never one per row. Only the customer's own items count: another customer's
 * approved item says nothing about this one's.
 */
export function createCatalogueLookup(db: Database) {
  const repo = createCatalogueRepository(db);
  return {
    async entries(customerId: number, jans: Iterable<string>): Promise<Map<string, CatalogueEntry>> {
      const distinct = [...new Set(jans)];
      const out = new Map<string, CatalogueEntry>();
      if (!distinct.length) return out;
      // Consumption tax is set on a category and holds for its subtree: the nearest one wins.
      const rates = new Map((await repo.consumptionRates()).map((r) => [r.category_id, r.rate]));
      const rateOfPath = (path: string | null) => {
        if (!path || !rates.size) return null;
        const ids = path.split('/').filter(Boolean).map(Number).reverse();
        for (const id of ids) {
          const r = rates.get(id);
          if (r) return r;
        }
        return null;
      };
      for (let i = 0; i < distinct.length; i += JANS_PER_QUERY) {
        // A preview asks for 100,000 JANs at once: 200 queries in one go held every other call
        // for 60-250 ms.
        if (i > 0) await nextTurn();
        const rows = await repo.entries(customerId, distinct.slice(i, i + JANS_PER_QUERY));
        for (const r of rows)
          out.set(r.jan, {
            status: r.status as CatalogueEntry['status'],
            postalRate: r.postal_rate,
            consumptionRate: rateOfPath(r.path),
          });
      }
      return out;
    },
  };
}
export type CatalogueLookup = ReturnType<typeof createCatalogueLookup>;
