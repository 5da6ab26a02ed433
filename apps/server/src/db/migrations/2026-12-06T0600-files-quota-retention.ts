import type { Kysely } from 'kysely';
import { createIndexOnline, dropIndexOnline, type OnlineIndex } from '../online-index.ts';

/**
 * Issue 36, item 5: a quota on each customer's stored bytes and a retention rule for every kind of
 * upload (lib/files.quota.ts, lib/files.retention.ts).
 * - `files_customer_kept`: the sizes of each customer's files still stored, which the quota sums
 *   on every upload of a customer's (under its lock) and the admin's customer list per page.
 * - `files_kept_kind`: the sweep's walk through one kind of upload still stored, in id order.
 * - The columns that name an upload, so the sweep's "is it still named" is a lookup, not a scan
 *   per file: partial where most rows name none (an item's image, an ID card's sides, a permit).
 * Built online (db/online-index.ts): `files` and `batches` take writes during a deploy.
 */
export const transactional = false;

const INDEXES: OnlineIndex[] = [
  {
    name: 'files_customer_kept',
    table: 'files',
    columns: ['customer_id'],
    include: ['size'],
    where: 'expired_at is null and customer_id is not null',
  },
  { name: 'files_kept_kind', table: 'files', columns: ['kind', 'id'], where: 'expired_at is null' },
  { name: 'order_reviews_file', table: 'order_reviews', columns: ['file_id'], where: 'file_id is not null' },
  { name: 'batches_file', table: 'batches', columns: ['file_id'], where: 'file_id is not null' },
  { name: 'id_cards_front_file', table: 'id_cards', columns: ['front_file_id'], where: 'front_file_id is not null' },
  { name: 'id_cards_back_file', table: 'id_cards', columns: ['back_file_id'], where: 'back_file_id is not null' },
  { name: 'items_image_file', table: 'items', columns: ['image_file_id'], where: 'image_file_id is not null' },
  {
    name: 'export_declarations_permit_file',
    table: 'export_declarations',
    columns: ['permit_file_id'],
    where: 'permit_file_id is not null',
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const index of INDEXES) await createIndexOnline(db, index);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of INDEXES) await dropIndexOnline(db, index.name);
}
