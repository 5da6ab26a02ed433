import type { Kysely } from 'kysely';

/**
 * An order's 'created' event is now read from the order row itself (orders.repository
 * `createdEvent`): the stored copies would show twice.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('tracking_events').where('kind', '=', 'created').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('tracking_events')
    .columns(['order_id', 'kind', 'at', 'created_by'])
    .expression((eb) =>
      eb.selectFrom('orders').select(['id', eb.val('created').as('kind'), 'created_at', 'created_by']),
    )
    .execute();
}
