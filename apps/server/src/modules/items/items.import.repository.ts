import type { Insertable, Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { ItemImportsTable, ItemsTable } from '../../db/schema-items.ts';
import { inScope, type Scope } from '../../lib/scope.ts';
import type { Db } from './items.repository.ts';

/** SQL of the item import; tenant rows go through `inScope`. */
export function createItemImportRepository(db: Database) {
  const base = (q: Db) =>
    q
      .selectFrom('item_imports as m')
      .innerJoin('customers as c', 'c.id', 'm.customer_id')
      .selectAll('m')
      .select('c.code as customer_code');

  return {
    find(scope: Scope, id: number) {
      return inScope(base(db).where('m.id', '=', id), 'm.customer_id', scope).executeTakeFirst();
    },
    findAny(id: number) {
      return base(db).where('m.id', '=', id).executeTakeFirst();
    },
    async insert(v: Insertable<ItemImportsTable>) {
      return (await db.insertInto('item_imports').values(v).returning('id').executeTakeFirstOrThrow()).id;
    },
    /** Sets values; with `fromStatus`, only while the import is in that status (answers whether it was). */
    async update(q: Db, id: number, v: Updateable<ItemImportsTable>, fromStatus?: string) {
      let u = q.updateTable('item_imports').set(v).where('id', '=', id);
      if (fromStatus) u = u.where('status', '=', fromStatus);
      return Number((await u.executeTakeFirst()).numUpdatedRows) > 0;
    },
    /** Previews past their end. */
    expired(now: string) {
      return db
        .selectFrom('item_imports')
        .select(['id', 'valid_key'])
        .where('status', '=', 'preview')
        .where('preview_until', '<=', now)
        .execute();
    },
    /** Imports being committed (the start-up makes sure each has its job). */
    committing() {
      return db
        .selectFrom('item_imports')
        .select(['id', 'customer_id', 'created_by'])
        .where('status', '=', 'committing')
        .execute();
    },

    /** The JANs among `jans` the customer's catalogue already has. */
    async existingJans(q: Db, customerId: number, jans: string[]): Promise<string[]> {
      const out: string[] = [];
      for (let i = 0; i < jans.length; i += 500) {
        const rows = await q
          .selectFrom('items')
          .select('jan')
          .where('customer_id', '=', customerId)
          .where('jan', 'in', jans.slice(i, i + 500))
          .execute();
        out.push(...rows.map((r) => r.jan));
      }
      return out;
    },
    /** One multi-row insert of items and their "created" events (a chunk of a commit). */
    async insertItems(q: Db, rows: Omit<ItemsTable, 'id' | 'version'>[], event: { user_id: number; at: string }) {
      if (!rows.length) return;
      const ids = await q.insertInto('items').values(rows).returning('id').execute();
      await q
        .insertInto('item_events')
        .values(
          ids.map((r) => ({
            item_id: r.id,
            kind: 'created',
            user_id: event.user_id,
            note: null,
            status: 'pending',
            changes: '[]',
            at: event.at,
          })),
        )
        .execute();
    },

    file(id: number) {
      return db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
    },
  };
}
export type ItemImportRecord = NonNullable<Awaited<ReturnType<ReturnType<typeof createItemImportRepository>['find']>>>;
