import type { Kysely } from 'kysely';

/**
 * The warehouse's own scans stored their place as the English word "Warehouse", shown as-is in
 * the Chinese console (issue 36 #23). They now store the neutral code `warehouse`
 * (contract `WAREHOUSE_LOCATION`), worded by the console in the user's language; the rows stored
 * before move to it. The code is written here, not imported: a migration is frozen once landed.
 * A place a client gave (any other text) is left as it was.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('tracking_events').set({ location: 'warehouse' }).where('location', '=', 'Warehouse').execute();
}
