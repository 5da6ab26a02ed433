import type { Database } from '../../db/database.ts';

/** The SQL of the catalogue as orders see it (items.catalogue.ts). */
export function createCatalogueRepository(db: Database) {
  return {
    /** Consumption tax rates by category (set on a category, held by its subtree). */
    consumptionRates: () => db.selectFrom('tax_consumption_rates').select(['category_id', 'rate']).execute(),
    /** The customer's items of these JANs with their postal tax rate and category path. */
    entries: (customerId: number, jans: string[]) =>
      db
        .selectFrom('items as i')
        .leftJoin('item_taxes as t', 't.code', 'i.tax_code')
        .leftJoin('item_categories as c', 'c.id', 'i.category_id')
        .select(['i.jan', 'i.status', 't.rate as postal_rate', 'c.path'])
        .where('i.customer_id', '=', customerId)
        .where('i.jan', 'in', jans)
        .execute(),
  };
}
