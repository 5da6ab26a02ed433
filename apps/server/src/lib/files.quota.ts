import { ErrorCode } from '@console/contract/envelope';
import type { Database } from '../db/database.ts';
import { lockForTransaction } from '../db/dialect.ts';
import { AppError } from './errors.ts';
import { insertFileRow, type NewFileRow, storedBytesByCustomer } from './files.repository.ts';
import { refusedPastQuota } from './files.retention.ts';

/**
 * A quota on the bytes each customer keeps in the file store (issue 36, item 5;
 * docs/decisions/2026-12-06-file-quotas-and-retention.md): CUSTOMER_FILE_QUOTA_BYTES. Every file of
 * a customer's whose bytes are stored counts; an upload of a kind the retention rules refuse past
 * the quota (files.retention.ts) that would take the customer past it is refused with a 507 that
 * gives the figures, and nothing is kept. Files the server makes count but are never refused (an
 * import's error workbook is how the user learns what to fix), nor are staff's uploads for a customer.
 */

/** MB to two decimals; a file of a few KB is 0.01 MB, never "0 MB". */
const mb = (bytes: number) => (bytes > 0 && bytes < 10_486 ? 0.01 : Math.round((bytes / 1048576) * 100) / 100);

/** The 507 of an upload that does not fit: the figures in the message (MB) and in `data` (bytes). */
export function quotaExceeded(usedBytes: number, limitBytes: number, fileBytes: number): AppError {
  return new AppError(
    ErrorCode.INSUFFICIENT_STORAGE,
    'storageQuotaExceeded',
    { usedBytes, limitBytes, fileBytes },
    { used: mb(usedBytes), limit: mb(limitBytes), file: mb(fileBytes) },
  );
}

/** Whether the quota applies to a new row: a customer's upload of a refused kind, with a quota set. */
export const underQuota = (row: Pick<NewFileRow, 'customer_id' | 'kind'>, limitBytes: number) =>
  limitBytes > 0 && row.customer_id != null && refusedPastQuota(row.kind);

/** Refuses `fileBytes` more for a customer already past (or brought past) its quota. */
export async function assertRoom(db: Database, customerId: number, fileBytes: number, limitBytes: number) {
  const used = (await storedBytesByCustomer(db, [customerId])).get(customerId) ?? 0;
  if (used + fileBytes > limitBytes) throw quotaExceeded(used, limitBytes, fileBytes);
}

/**
 * Inserts the row of an upload under its customer's quota, in `db`'s transaction or one of its own.
 * One customer's uploads are checked and recorded one at a time — PostgreSQL: an advisory lock
 * on the customer held to the transaction's end, taken before the sum is read; SQLite: its one
 * writer, from BEGIN IMMEDIATE on — so uploads sent together cannot each find room that only one has.
 */
export async function insertWithinQuota(db: Database, row: NewFileRow, limitBytes: number): Promise<number> {
  const customerId = row.customer_id!;
  const work = async (trx: Database) => {
    await lockForTransaction(trx, `customer-files:${customerId}`);
    await assertRoom(trx, customerId, row.size, limitBytes);
    return insertFileRow(trx, row);
  };
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
