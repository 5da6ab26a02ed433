import type { Database } from '../../db/database.ts';
import type { JobKind } from '../../lib/jobs.ts';
import { chinaMonthOf, chinaMonthStart, chargeStorageAccrued } from '../../domain/pricing/index.ts';
import { createBillsRepository } from './bills.repository.ts';

/** Orders per transaction: short transactions, so scans and shipping are not held behind the job. */
const CHUNK = 500;

/**
 * Storage accrual (issue 17): an order kept in the warehouse is charged storage for each closed
 * China month, not only when (if ever) it ships, so a month's statement shows the storage of the
 * parcels still held. Walks the orders received and not shipped (status `received`, intercepted
 * ones included) that were received before the current month, in id order, a chunk per
 * transaction. Idempotent: the month's key is unique, so a second run (or a parallel one, or the
 * ship move) writes nothing twice. Returns the number of lines written.
 */
export async function accrueStorage(db: Database, at: Date): Promise<number> {
  const iso = at.toISOString();
  const monthStart = new Date(chinaMonthStart(chinaMonthOf(iso))).toISOString();
  const bills = createBillsRepository(db);
  let written = 0;
  for (let after = 0; ;) {
    const ids = await bills.heldOrderIds(monthStart, after, CHUNK);
    if (!ids.length) return written;
    written += (await db.transaction().execute((trx) => chargeStorageAccrued(trx, ids, iso))).length;
    after = ids.at(-1)!;
  }
}

/**
 * The periodic job (lib/jobs.ts, scheduled every STORAGE_ACCRUAL_HOURS and once at start by the
 * app; tests call `accrueStorage` themselves).
 */
export function storageAccrualJob(opts: {
  db: Database;
  clock: () => Date;
  onDone?: (written: number) => void;
}): JobKind<Record<string, never>> {
  return {
    name: 'storage-accrual',
    run: async () => opts.onDone?.(await accrueStorage(opts.db, opts.clock())),
  };
}
