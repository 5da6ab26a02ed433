import type { Database } from '../db/database.ts';
import { transition } from '../domain/order-life.ts';
import { storeReasons } from '../lib/reasons.ts';
import { clearanceReasonKey } from '../modules/orders/order-errors.ts';

/**
 * Demo clearance results (issue 13), for `demo` and `demo2`: three shipped orders each declared
 * with HZ-CB, one released by customs, one refused (ID and name do not match: on the Error Order
 * List, to fix), one still waiting for its result (to upload one on the Clearance Results page).
 * Moved through the order's life, with its events, as a real result would.
 */
export async function seedDemoClearance(db: Database, now: Date) {
  const at = now.toISOString();
  const operator = await db.selectFrom('users').select('id').where('name', '=', 'operator').executeTakeFirst();
  await db.transaction().execute(async (trx) => {
    for (const code of ['DEMO', 'DEMO2']) {
      const picked = await trx
        .selectFrom('orders')
        .innerJoin('customers', 'customers.id', 'orders.customer_id')
        .select('orders.id')
        .where('customers.code', '=', code)
        .where('orders.status', '=', 'shipped')
        .where('orders.intercepted', '=', 0)
        .where('orders.error_at', 'is', null)
        .where('orders.abnormal_at', 'is', null)
        .where('orders.waybill_no', 'is not', null)
        // The oldest: the newest error orders on the lists stay the ones other demos show.
        .orderBy('orders.created_at')
        .orderBy('orders.id')
        .limit(3)
        .execute();
      const ids = picked.map((p) => p.id);
      if (!ids.length) continue;
      // The company the order was declared with: a plain order field, not part of its life.
      await trx.updateTable('orders').set({ clearance_company_code: 'HZ-CB' }).where('id', 'in', ids).execute();
      const by = { at, by: operator?.id ?? null, location: 'HZ-CB' };
      await transition(trx, 'release', ids.slice(0, 1), by);
      await transition(trx, 'flagError', ids.slice(1, 2), {
        ...by,
        note: 'C01',
        reason: storeReasons([{ code: clearanceReasonKey('C01') }]),
      });
    }
  });
}
