import { STALE_KEY } from '@console/contract';
import { AppError } from './errors.ts';

/**
 * A versioned save's guarded UPDATE (`WHERE id = ? AND version = ?`) matched no row: the record
 * changed (or went) since the form was loaded. Thrown inside the save's transaction, so nothing
 * of it is kept; `versionedSave` turns it into the 409 once the transaction has rolled back.
 */
export class StaleVersion extends Error {
  constructor() {
    super('stale version');
  }
}

/**
 * Runs a save that may meet a stale version and answers it with 409 `recordChanged`, `data` the
 * record as its read call shows it now (contract `staleRecord`), so the console can show what
 * changed. The record is read after the failed transaction: a record deleted meanwhile is the
 * read call's own 404.
 */
export async function versionedSave<T>(save: () => Promise<T>, read: () => Promise<{ version: number }>): Promise<T> {
  try {
    return await save();
  } catch (e) {
    if (!(e instanceof StaleVersion)) throw e;
    const current = await read();
    throw AppError.conflict(STALE_KEY, undefined, { version: current.version, current });
  }
}
