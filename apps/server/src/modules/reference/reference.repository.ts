import type { Database } from '../../db/database.ts';
import { inScope, type Scope } from '../../lib/scope.ts';

export function createReferenceRepository(db: Database) {
  return {
    channels: () => db.selectFrom('channels').selectAll().orderBy('sort').execute(),
    clearanceCompanies: () => db.selectFrom('clearance_companies').selectAll().orderBy('code').execute(),
    orderTypes: () => db.selectFrom('order_types').selectAll().orderBy('code').execute(),
    currencies: () => db.selectFrom('currencies').selectAll().orderBy('code').execute(),
    customers: (scope: Scope) =>
      inScope(db.selectFrom('customers').select(['id', 'code', 'name']).orderBy('code'), 'id', scope).execute(),
    exportNominations(scope: Scope, customerId?: number) {
      let q = db
        .selectFrom('export_nominations')
        .select(['id', 'name_ja', 'name_en', 'corporate_number', 'customer_id'])
        .where('deleted_at', 'is', null)
        .orderBy('id');
      q = inScope(q, 'customer_id', scope);
      if (customerId !== undefined) q = q.where('customer_id', '=', customerId);
      return q.execute();
    },
  };
}
