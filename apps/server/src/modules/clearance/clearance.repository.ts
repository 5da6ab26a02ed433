import type { Database } from '../../db/database.ts';

/** The SQL of the clearance results: the orders by waybill number, and the webhook's seen deliveries. */
export function createClearanceRepository(db: Database) {
  return {
    async companyExists(code: string) {
      return !!(await db.selectFrom('clearance_companies').select('code').where('code', '=', code).executeTakeFirst());
    },
    /** The orders with these waybill numbers, with what the order's life reads. */
    async ordersByWaybill(waybills: readonly string[]) {
      const out = [];
      for (let i = 0; i < waybills.length; i += 1000) {
        out.push(
          ...(await db
            .selectFrom('orders')
            .select(['id', 'order_no', 'waybill_no', 'clearance_company_code', 'status', 'intercepted', 'error_at'])
            .where('waybill_no', 'in', waybills.slice(i, i + 1000))
            .execute()),
        );
      }
      return out;
    },
    /**
     * Records a delivery's keys (its id and its signature) as taken; false when any was taken
     * before. Committed on its own, before the results are applied: a delivery refused for its
     * results is not taken again either (the company sends a new one). Keys older than
     * `forgetBefore` go: the signing window refuses those calls anyway.
     */
    async take(company: string, keys: readonly string[], at: string, forgetBefore: string) {
      await db.deleteFrom('clearance_webhook_seen').where('seen_at', '<', forgetBefore).execute();
      const inserted = await db
        .insertInto('clearance_webhook_seen')
        .values(keys.map((seen_key) => ({ company_code: company, seen_key, seen_at: at })))
        .onConflict((oc) => oc.columns(['company_code', 'seen_key']).doNothing())
        .returning('seen_key')
        .execute();
      return inserted.length === keys.length;
    },
  };
}
