import type { Kysely } from 'kysely';
import { createIndexOnline, dropIndexOnline } from '../online-index.ts';

/**
 * Issue 39: the v1 order list pages on (updated_at, id) within a customer, so a machine syncing
 * "what changed since" reads its page from an index instead of sorting the customer's orders.
 * Built online (db/online-index.ts): `orders` takes writes during a deploy.
 */
export const transactional = false;

const INDEX = { name: 'orders_customer_updated', table: 'orders', columns: ['customer_id', 'updated_at', 'id'] };

export async function up(db: Kysely<any>): Promise<void> {
  await createIndexOnline(db, INDEX);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropIndexOnline(db, INDEX.name);
}
