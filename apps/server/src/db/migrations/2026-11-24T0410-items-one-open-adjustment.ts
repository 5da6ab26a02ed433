import { type Kysely, sql } from 'kysely';

/**
 * At most one adjustment per item waits for the customer. The service checks first, but two
 * operators adjusting the same item at the same moment would both pass that check: the partial
 * unique index settles it (the loser hears 409 "already has an adjustment waiting").
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('item_adjustments_one_open')
    .unique()
    .on('item_adjustments')
    .column('item_id')
    .where(sql<boolean>`status = 'pending'`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('item_adjustments_one_open').execute();
}
