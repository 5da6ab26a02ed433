import type { Database } from '../db/database.ts';

/**
 * MDA demo data (issue 15, embedded default only, after the demo orders): the orders of the
 * `demo` and `demo2` Japan-channel batches name their customer's first export nomination as
 * the exporter, as an import with a nomination chosen does, so the Batch List's MDA downloads
 * show an exporter from the first start. Their values come from the orders' JPY prices (no
 * declaration rows here: the declarations page seeds its own).
 */
export async function seedDemoMda(db: Database) {
  const customers = await db
    .selectFrom('users')
    .select('customer_id')
    .where('name', 'in', ['demo', 'demo2'])
    .where('customer_id', 'is not', null)
    .execute();
  await db.transaction().execute(async (trx) => {
    for (const { customer_id } of customers) {
      const nomination = await trx
        .selectFrom('export_nominations')
        .select('id')
        .where('customer_id', '=', customer_id!)
        .orderBy('id')
        .executeTakeFirst();
      if (!nomination) continue;
      const batches = trx
        .selectFrom('batches')
        .select('id')
        .where('customer_id', '=', customer_id!)
        .where('channel_code', '=', 'JP');
      await trx
        .updateTable('orders')
        .set({ export_nomination_id: nomination.id })
        .where('customer_id', '=', customer_id!)
        .where('batch_id', 'in', batches)
        .where('export_nomination_id', 'is', null)
        .execute();
    }
  });
}
