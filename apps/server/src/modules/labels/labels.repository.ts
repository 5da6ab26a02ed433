import type { Insertable, Updateable } from 'kysely';
import { visibleOrders } from '../../domain/order-writer.ts';
import type { Database } from '../../db/database.ts';
import type { PrintJobsTable } from '../../db/schema.ts';
import { inScope, type Scope } from '../../lib/scope.ts';

/** The orders a label shows, with their items, read in the caller's scope; print jobs' rows. */
export function createLabelsRepository(db: Database) {
  return {
    async orders(scope: Scope, ids: readonly number[]) {
      const rows = await inScope(db.selectFrom('orders as o').$call(visibleOrders(db, 'o')), 'o.customer_id', scope)
        .select([
          'o.id',
          'o.order_no',
          'o.waybill_no',
          'o.split_waybill_no',
          'o.channel_code',
          'o.status',
          'o.intercepted',
          'o.error_at',
          'o.label_b',
          'o.recipient_name',
          'o.recipient_phone',
          'o.recipient_province',
          'o.recipient_city',
          'o.recipient_district',
          'o.recipient_address',
          'o.recipient_postcode',
          'o.sender_name',
          'o.sender_phone',
          'o.sender_address',
        ])
        .where('o.id', 'in', [...ids])
        .execute();
      const items = rows.length
        ? await db
            .selectFrom('order_items')
            .select(['order_id', 'name', 'jan', 'quantity'])
            .where(
              'order_id',
              'in',
              rows.map((r) => r.id),
            )
            .orderBy('order_id')
            .orderBy('line_no')
            .execute()
        : [];
      return { rows, items };
    },

    async insertPrintJob(q: Database, v: Insertable<PrintJobsTable>) {
      return (await q.insertInto('print_jobs').values(v).returning('id').executeTakeFirstOrThrow()).id;
    },
    printJob(id: number) {
      return db.selectFrom('print_jobs').selectAll().where('id', '=', id).executeTakeFirst();
    },
    printJobOf(userId: number, id: number) {
      return db
        .selectFrom('print_jobs')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },
    /**
     * Changes a running job (answers whether it was running). With `unrecorded`, only while its
     * counted orders are not recorded yet: the one run that counts them is the one that records them.
     */
    async updateRunningPrintJob(q: Database, id: number, v: Updateable<PrintJobsTable>, unrecorded = false) {
      let u = q.updateTable('print_jobs').set(v).where('id', '=', id).where('status', '=', 'running');
      if (unrecorded) u = u.where('printed_ids', 'is', null);
      return Number((await u.executeTakeFirst()).numUpdatedRows) > 0;
    },
  };
}
