import type { Kysely } from 'kysely';

/**
 * A customer's allowed channels and the managed start of a number segment (issue 17).
 * `customer_channels`: no rows for a customer means every channel (what every customer had
 * before), rows limit it to those. `first_seq` is where a segment's range begins, so two
 * segments of the same number shape can be checked for overlap; existing rows get 1, which
 * claims everything below their next number too and so never lets a new range reissue one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('customer_channels')
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('channel_code', 'text', (c) => c.notNull().references('channels.code'))
    .addPrimaryKeyConstraint('customer_channels_pk', ['customer_id', 'channel_code'])
    .execute();
  await db.schema
    .alterTable('number_segments')
    .addColumn('first_seq', 'bigint', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createIndex('number_segments_shape')
    .on('number_segments')
    .columns(['scheme', 'prefix', 'suffix'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('number_segments_shape').execute();
  await db.schema.alterTable('number_segments').dropColumn('first_seq').execute();
  await db.schema.dropTable('customer_channels').execute();
}
