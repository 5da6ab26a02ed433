import { pageOf } from '../../db/paged.ts';
import type { exportNominations as C } from '@console/contract';
import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { dialectOf, ilike, likeContaining, likeSql, likeStartingWith } from '../../db/dialect.ts';
import type { DB, ExportNominationsTable } from '../../db/schema.ts';
import { inScope, type Scope } from '../../lib/scope.ts';

const SORT = {
  createdAt: 'n.created_at',
  nameJa: 'n.name_ja',
  nameEn: 'n.name_en',
  corporateNumber: 'n.corporate_number',
} as const;

/** Orders not yet out of the caller's hands: a nomination they name must stay (spec §4 statuses). */
export const UNSHIPPED = ['created', 'printed', 'received'] as const;
/** Batches whose orders are still to be written with the nomination they name. */
const UNCOMMITTED = ['parsing', 'preview', 'committing'] as const;

export type NominationValues = Pick<
  ExportNominationsTable,
  'name_ja' | 'name_en' | 'corporate_number' | 'address_en' | 'tel'
> & {
  id_mark: string;
  receive_email: string;
};

type Filters = Omit<C.ExportNominationListRequest, 'offset' | 'limit'>;

/**
 * A customer's export nomination that is not deleted, or undefined: what an order or a batch may
 * name (orders and batches check it through this module's index).
 */
export const liveExportNomination = (db: Database, customerId: number, id: number) =>
  db
    .selectFrom('export_nominations')
    .select('id')
    .where('id', '=', id)
    .where('customer_id', '=', customerId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

/**
 * SQL of export nominations. Every read and write goes through the caller's scope; a deleted
 * nomination (deleted_at set) is gone for every call, as the order import already reads it.
 */
export function createExportNominationsRepository(db: Database) {
  const like = ilike(db);
  const live = () =>
    db
      .selectFrom('export_nominations as n')
      .innerJoin('customers as c', 'c.id', 'n.customer_id')
      .where('n.deleted_at', 'is', null);
  const filtered = (scope: Scope, f: Filters) => {
    let q = inScope(live(), 'n.customer_id', scope);
    if (f.customerId) q = q.where('n.customer_id', '=', f.customerId);
    if (f.corporateNumber) q = q.where(likeSql('n.corporate_number', 'like', likeStartingWith(f.corporateNumber)));
    if (f.name) {
      const p = likeContaining(f.name);
      q = q.where((eb) => eb.or([likeSql('n.name_ja', like, p), likeSql('n.name_en', like, p)]));
    }
    return q;
  };
  const columns = [
    'n.id',
    'n.version',
    'n.customer_id',
    'c.code as customer_code',
    'n.name_ja',
    'n.name_en',
    'n.corporate_number',
    'n.address_en',
    'n.tel',
    'n.id_mark',
    'n.receive_email',
    'n.created_at',
    'n.updated_at',
  ] as const;

  /** The guarded delete itself: no unshipped order and no uncommitted batch names the nomination. */
  async function deleteIfUnused(q: Transaction<DB>, scope: Scope, id: number, at: string): Promise<boolean> {
    const r = await inScope(q.updateTable('export_nominations'), 'customer_id', scope)
      .set({ deleted_at: at, updated_at: at })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('orders as o')
              .select(sql`1`.as('x'))
              .whereRef('o.customer_id', '=', 'export_nominations.customer_id')
              .whereRef('o.export_nomination_id', '=', 'export_nominations.id')
              .where('o.status', 'in', [...UNSHIPPED]),
          ),
        ),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('batches as b')
              .select(sql`1`.as('x'))
              .whereRef('b.customer_id', '=', 'export_nominations.customer_id')
              .whereRef('b.export_nomination_id', '=', 'export_nominations.id')
              .where('b.status', 'in', [...UNCOMMITTED]),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  return {
    async page(scope: Scope, f: C.ExportNominationListRequest) {
      const q = filtered(scope, f);
      return pageOf(q, (q) => q.select(columns).orderBy(SORT[f.sort], f.order).orderBy('n.id', f.order), f);
    },

    find: (scope: Scope, id: number) =>
      inScope(live(), 'n.customer_id', scope).where('n.id', '=', id).select(columns).executeTakeFirst(),

    insert: (customerId: number, v: NominationValues, at: string) =>
      db
        .insertInto('export_nominations')
        .values({ ...v, customer_id: customerId, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow(),

    /** Changes a live nomination in scope; false when there is none. */
    /** `version`: only while the nomination is at the version an edit form was loaded from. */
    async update(
      scope: Scope,
      id: number,
      v: Partial<NominationValues>,
      at: string,
      version?: number,
    ): Promise<boolean> {
      let q = inScope(db.updateTable('export_nominations'), 'customer_id', scope)
        .set({ ...v, updated_at: at })
        .where('id', '=', id)
        .where('deleted_at', 'is', null);
      if (version !== undefined) q = q.where('version', '=', version);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /**
     * Deletes (marks deleted) a live nomination in scope that no unshipped order and no
     * uncommitted batch names: the guard is in the statement, so a delete and an order's
     * shipping decide in one step. Orders are looked up by their customer (its index) first.
     */
    async deleteUnused(scope: Scope, id: number, at: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        // PostgreSQL: an order being written holds the nomination FOR SHARE (domain/order-writer.ts);
        // the row lock here waits for it to commit, and the guarded UPDATE below is a new statement,
        // whose snapshot then sees that order. (An UPDATE's own re-check after a wait re-reads only
        // the row, not its NOT EXISTS subqueries, which is why the lock comes first.) SQLite runs
        // one writer at a time, so the single statement is enough there.
        if (dialectOf(db) === 'postgres') {
          const live = await trx
            .selectFrom('export_nominations')
            .select('id')
            .where('id', '=', id)
            .where('deleted_at', 'is', null)
            .forUpdate()
            .executeTakeFirst();
          if (!live) return false;
        }
        return deleteIfUnused(trx, scope, id, at);
      });
    },

    /** Why a nomination cannot go: its unshipped orders (count and the first numbers) and uncommitted batches. */
    async usage(customerId: number, id: number) {
      const orders = db
        .selectFrom('orders')
        .where('customer_id', '=', customerId)
        .where('export_nomination_id', '=', id)
        .where('status', 'in', [...UNSHIPPED]);
      const [{ n }, first, { b }] = await Promise.all([
        orders.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        orders.select('order_no').orderBy('id').limit(10).execute(),
        db
          .selectFrom('batches')
          .where('customer_id', '=', customerId)
          .where('export_nomination_id', '=', id)
          .where('status', 'in', [...UNCOMMITTED])
          .select((eb) => eb.fn.countAll<number>().as('b'))
          .executeTakeFirstOrThrow(),
      ]);
      return { orders: Number(n), orderNos: first.map((o) => o.order_no), batches: Number(b) };
    },

    /** The compiled query of the export: the list's filters and sort, every row. */
    forExport: (scope: Scope, f: Filters) =>
      filtered(scope, f).select(columns).orderBy(SORT[f.sort], f.order).orderBy('n.id', f.order).compile(),
  };
}
export type ExportNominationsRepository = ReturnType<typeof createExportNominationsRepository>;
export type NominationRecord = NonNullable<Awaited<ReturnType<ExportNominationsRepository['find']>>>;
