import type { Database } from '../db/database.ts';

/**
 * The channels a customer may use (issue 17): its `customer_channels` rows, or null when it has
 * none, which means every channel (as every customer had before the list existed). Read at the
 * moment an order gets its channel (single create, upload, each parsed row) so a change applies
 * at once.
 */
export async function allowedChannelsOf(db: Database, customerId: number): Promise<ReadonlySet<string> | null> {
  const rows = await db
    .selectFrom('customer_channels')
    .select('channel_code')
    .where('customer_id', '=', customerId)
    .execute();
  return rows.length ? new Set(rows.map((r) => r.channel_code)) : null;
}
