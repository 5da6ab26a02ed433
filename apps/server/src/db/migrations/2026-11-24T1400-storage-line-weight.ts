import type { Kysely } from 'kysely';

/**
 * The warehouse scan records the parcel's gross weight (issue 17: freight is priced by it). The
 * order keeps the latest weight (`orders.gross_weight_g`, from the bills migration); the storage
 * line keeps the weight entered with that scan, so a re-weighing can be traced to its scan.
 * Null: no weight was entered on the line.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('storage_order_lines').addColumn('gross_weight_g', 'integer').execute();
}
