import type { Insertable } from 'kysely';
import type { Database } from '../db/database.ts';
import type { FilesTable } from '../db/schema-files.ts';

/**
 * The SQL of the files module (lib/files.ts): the one place that inserts, re-kinds and deletes
 * `files` rows. Every function takes the database or the caller's transaction, so a row is
 * written in the transaction of the change that names it (a batch, an ID card, a print job).
 */
export type NewFileRow = Insertable<FilesTable>;

/** Inserts a row for bytes already written to the store; its id. */
export async function insertFileRow(db: Database, row: NewFileRow): Promise<number> {
  return (await db.insertInto('files').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

/** Inserts several rows at once, ids in the order given. */
export async function insertFileRows(db: Database, rows: readonly NewFileRow[]): Promise<number[]> {
  if (!rows.length) return [];
  const out: number[] = [];
  // One statement per row: PostgreSQL and SQLite both return ids in order, but only for one row
  // per statement is that a documented promise.
  for (const row of rows) out.push(await insertFileRow(db, row));
  return out;
}

/**
 * Re-kinds one row of the owner's if it still has `kind`, by a guarded UPDATE: of two callers
 * only one gets it. Its storage key, or undefined.
 */
export async function rekindFileRow(
  db: Database,
  opts: { id: number; kind: string; ownerUserId: number; newKind: string },
): Promise<string | undefined> {
  const r = await db
    .updateTable('files')
    .set({ kind: opts.newKind })
    .where('id', '=', opts.id)
    .where('kind', '=', opts.kind)
    .where('owner_user_id', '=', opts.ownerUserId)
    .returning('storage_key')
    .executeTakeFirst();
  return r?.storage_key;
}

/** Deletes the owner's rows of these kinds but one; their storage keys (their bytes go next). */
export async function deleteOwnedFileRows(
  db: Database,
  opts: { kinds: readonly string[]; ownerUserId: number; keepId: number },
): Promise<string[]> {
  const rows = await db
    .deleteFrom('files')
    .where('kind', 'in', [...opts.kinds])
    .where('owner_user_id', '=', opts.ownerUserId)
    .where('id', '!=', opts.keepId)
    .returning('storage_key')
    .execute();
  return rows.map((r) => r.storage_key);
}

/** Temporary rows made before `before` whose bytes are still there, oldest first. */
export function filesDueForExpiry(db: Database, before: string, temporaryKinds: readonly string[], limit: number) {
  return db
    .selectFrom('files')
    .select(['id', 'storage_key'])
    .where('expired_at', 'is', null)
    .where((eb) => eb.or([eb('temporary', '=', 1), eb('kind', 'in', [...temporaryKinds])]))
    .where('created_at', '<', before)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Marks a row expired unless another sweep did first; whether this call did. */
export async function markFileExpired(db: Database, id: number, at: string): Promise<boolean> {
  const r = await db
    .updateTable('files')
    .set({ expired_at: at })
    .where('id', '=', id)
    .where('expired_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** A row for a download, if it is of this kind (and this owner's, when one is named). */
export function findFileRow(db: Database, opts: { id: number; kind: string; ownerUserId?: number }) {
  let q = db
    .selectFrom('files')
    .select(['id', 'name', 'mime', 'size', 'storage_key', 'expired_at', 'customer_id'])
    .where('id', '=', opts.id)
    .where('kind', '=', opts.kind);
  if (opts.ownerUserId !== undefined) q = q.where('owner_user_id', '=', opts.ownerUserId);
  return q.executeTakeFirst();
}

/**
 * Every column that names bytes in the store: a `files` row's, and the work bytes' of the
 * records that keep a key (a render's input and result, a batch's parsed orders, an item
 * import's valid rows, a declaration run's rows). A key named nowhere here is an orphan (files.ts
 * `sweep`); a new column holding a key belongs in this list.
 */
const KEY_COLUMNS = [
  ['files', 'storage_key'],
  ['export_renders', 'input_key'],
  ['export_renders', 'file_key'],
  ['batches', 'parsed_key'],
  ['item_imports', 'valid_key'],
  ['export_declaration_runs', 'rows_key'],
] as const;

/** Which of `keys` some record names. */
export async function referencedStorageKeys(db: Database, keys: readonly string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const found = new Set<string>();
  for (const [table, column] of KEY_COLUMNS) {
    const rows = await db
      .selectFrom(table)
      .select(`${column} as key` as never)
      .where(column as never, 'in', [...keys] as never)
      .execute();
    for (const r of rows as unknown as { key: string | null }[]) if (r.key) found.add(r.key);
  }
  return found;
}

/**
 * The bytes kept for each of these customers: the sizes of its files whose bytes are still stored
 * (not expired by the retention), uploads and files made for it alike. A customer with none is absent.
 * Read from `files_customer_kept` (migration 2026-12-06T0600), a partial index that holds the sizes.
 */
export async function storedBytesByCustomer(
  db: Database,
  customerIds: readonly number[],
): Promise<Map<number, number>> {
  if (!customerIds.length) return new Map();
  const rows = await db
    .selectFrom('files')
    .select((eb) => ['customer_id', eb.fn.sum<string | number>('size').as('bytes')])
    .where('customer_id', 'in', [...customerIds])
    .where('expired_at', 'is', null)
    .groupBy('customer_id')
    .execute();
  return new Map(rows.map((r) => [r.customer_id!, Number(r.bytes)]));
}
