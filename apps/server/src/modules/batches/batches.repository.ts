import type { Paging } from '@console/contract';
import type { Insertable, Transaction, Updateable } from 'kysely';
import { type Database, readRouted } from '../../db/database.ts';
import { likeContaining, likeSql } from '../../db/dialect.ts';
import { pageTotal } from '../../db/page-total.ts';
import { rowsInOrder } from '../../db/rows-in-order.ts';
import type { DB } from '../../db/schema.ts';
import { BATCH_EVENT_OF_STATUS, detachOrderEvents, recordBatchEvent } from '../../domain/order-events.ts';
import { visibleOrders } from '../../domain/order-writer.ts';
import { inScope, type Scope } from '../../lib/scope.ts';
import { nextTurn } from '../../db/next-turn.ts';
import { liveExportNomination } from '../export-nominations/index.ts';

/** The only place the batch import's SQL lives. */
export function createBatchesRepository(db: Database) {
  const listQuery = (scope: Scope) =>
    inScope(
      db
        .selectFrom('batches as b')
        .innerJoin('customers as c', 'c.id', 'b.customer_id')
        .leftJoin('export_nominations as en', 'en.id', 'b.export_nomination_id')
        .selectAll('b')
        .select(['c.code as customer_code', 'c.name as customer_name', 'en.name_en as export_nomination_name']),
      'b.customer_id',
      scope,
    );
  return {
    db,
    referenceData: () => parseReferenceData(db),
    exportNominationOf: (id: number, customerId: number) => liveExportNomination(db, customerId, id),
    async existingOrderNos(q: Database | Transaction<DB>, customerId: number, orderNos: string[]): Promise<string[]> {
      const out: string[] = [];
      for (let i = 0; i < orderNos.length; i += 1000) {
        const rows = await q
          .selectFrom('orders')
          .select('order_no')
          .where('customer_id', '=', customerId)
          .where('order_no', 'in', orderNos.slice(i, i + 1000))
          .execute();
        out.push(...rows.map((r) => r.order_no));
        // A 100,000-row preview asks 100 of these: other users' calls run between them.
        if (i + 1000 < orderNos.length) await nextTurn();
      }
      return out;
    },
    file: (id: number) => db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst(),
    insertBatch: (row: Insertable<DB['batches']>, q: Database | Transaction<DB> = db) =>
      q.insertInto('batches').values(row).returning('id').executeTakeFirstOrThrow(),
    updateBatch: (q: Database | Transaction<DB>, id: number, set: Updateable<DB['batches']>) =>
      q.updateTable('batches').set(set).where('id', '=', id).execute(),
    find: (scope: Scope, id: number) => listQuery(scope).where('b.id', '=', id).executeTakeFirst(),
    findAny: (id: number) => db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirst(),
    /** Batches parsing or committing (at start: the ones that may have no job, see recoverAtStart). */
    running: () =>
      db
        .selectFrom('batches')
        .select(['id', 'status', 'customer_id', 'created_by'])
        .where('status', 'in', ['parsing', 'committing'])
        .execute(),
    /**
     * Where a parsing batch stands, the same on every instance: 0 once its parse started in a
     * worker (`heartbeat_at` is set then; null while it waits), else its place among the batches
     * still waiting, oldest first. Undefined when it is not parsing.
     */
    async queuePosition(id: number): Promise<number | undefined> {
      const b = await db
        .selectFrom('batches')
        .select(['status', 'heartbeat_at'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (b?.status !== 'parsing') return undefined;
      if (b.heartbeat_at !== null) return 0;
      const r = await db
        .selectFrom('batches')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'parsing')
        .where('heartbeat_at', 'is', null)
        .where('id', '<=', id)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** Unconfirmed previews past their time. */
    expiredPreviews: (now: string) =>
      db
        .selectFrom('batches')
        .select(['id', 'parsed_key'])
        .where('status', '=', 'preview')
        .where('preview_until', '<=', now)
        .execute(),
    /** Previews without an end (made with errors before every preview expired) end at `until`. */
    endlessPreviews: (until: string) =>
      db
        .updateTable('batches')
        .set({ preview_until: until })
        .where('status', '=', 'preview')
        .where('preview_until', 'is', null)
        .execute(),
    /**
     * Moves a batch on only from the status it was seen in: false when someone else moved it first.
     * The one writer of a batch's status: a move to its end (done, failed) writes the batch's
     * webhook event (`batch.committed`, `batch.failed`) in the same transaction as the move.
     */
    async updateFrom(id: number, from: string, set: Updateable<DB['batches']>, q: Database | Transaction<DB> = db) {
      const type = typeof set.status === 'string' ? BATCH_EVENT_OF_STATUS[set.status] : undefined;
      const move = async (t: Database | Transaction<DB>) => {
        const r = await t
          .updateTable('batches')
          .set(set)
          .where('id', '=', id)
          .where('status', '=', from)
          .executeTakeFirst();
        const moved = Number(r.numUpdatedRows) > 0;
        if (moved && type) await recordBatchEvent(t, id, type, String(set.updated_at ?? new Date().toISOString()));
        return moved;
      };
      // A move to the end outside a transaction gets one: the event commits with it or not at all.
      return type && !q.isTransaction ? q.transaction().execute(move) : move(q);
    },
    /**
     * Removes the staged orders of a batch whose commit failed or was interrupted (SQLite), in
     * short transactions like the ones that wrote them; they stay hidden meanwhile (visibleOrders).
     */
    async removeBatchOrders(batchId: number) {
      for (;;) {
        const removed = await db.transaction().execute(async (trx) => {
          const ids = (
            await trx.selectFrom('orders').select('id').where('batch_id', '=', batchId).limit(1000).execute()
          ).map((r) => r.id);
          if (!ids.length) return 0;
          await trx.deleteFrom('tracking_events').where('order_id', 'in', ids).execute();
          await trx.deleteFrom('order_items').where('order_id', 'in', ids).execute();
          await detachOrderEvents(trx, ids);
          await trx.deleteFrom('orders').where('id', 'in', ids).execute();
          return ids.length;
        });
        if (!removed) return;
        await nextTurn();
      }
    },
    async page(
      scope: Scope,
      p: Paging & {
        batchNo?: string;
        channel?: string;
        status?: string;
        customerId?: number;
        from?: string;
        to?: string;
      },
    ) {
      // Filtered, counted and cut on `batches` alone (its covering indexes, migration
      // 2026-11-28T0100), then only the page's rows joined: an operator's first page at 200,000
      // batches took 170 ms sorting the joined rows (bench:lists).
      let q = inScope(db.selectFrom('batches as b'), 'b.customer_id', scope);
      // Batch numbers are `B` and digits (lib/document-numbers.ts): the text upper-cased under a
      // plain LIKE finds what ILIKE found, at a fraction of PostgreSQL's ILIKE cost per row (each
      // row folded to lower case): 150-215 ms for a search at 200,000 batches (bench:lists).
      // The user's `%` and `_` are matched as typed.
      if (p.batchNo) q = q.where(likeSql('b.batch_no', 'like', likeContaining(p.batchNo.toUpperCase())));
      if (p.channel) q = q.where('b.channel_code', '=', p.channel);
      if (p.status) q = q.where('b.status', '=', p.status);
      if (p.customerId) q = q.where('b.customer_id', '=', p.customerId);
      // Dates are China days (UTC+8): convert the bounds to UTC instants.
      if (p.from) q = q.where('b.created_at', '>=', new Date(`${p.from}T00:00:00+08:00`).toISOString());
      if (p.to)
        q = q.where(
          'b.created_at',
          '<',
          new Date(new Date(`${p.to}T00:00:00+08:00`).getTime() + 86_400_000).toISOString(),
        );
      // The page's ids and its count on the replica when read-your-own-writes allows (readRouted).
      const ids = await readRouted(
        db,
        q
          .select('b.id')
          .orderBy('b.created_at', p.order)
          .orderBy('b.id', p.order)
          .offset(p.offset)
          .limit(p.limit)
          .compile(),
      );
      const total = await pageTotal(p.offset, p.limit, ids.length, async () =>
        Number((await readRouted(db, q.select((eb) => eb.fn.countAll<number>().as('n')).compile()))[0]!.n),
      );
      const list = await rowsInOrder(ids, (page) => listQuery(scope).where('b.id', 'in', page).execute());
      return { total, list };
    },
    async search(scope: Scope, p: Paging & { keyword: string }) {
      const kw = p.keyword;
      const q = listQuery(scope).where((eb) =>
        eb.or([
          eb('b.batch_no', '=', kw),
          eb(
            'b.id',
            'in',
            eb
              .selectFrom('orders')
              .select('batch_id')
              .where((o) => o.or([o('order_no', '=', kw), o('waybill_no', '=', kw), o('system_no', '=', kw)]))
              .where('batch_id', 'is not', null) as never,
          ),
        ]),
      );
      const [{ n }, list] = await Promise.all([
        q
          .clearSelect()
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
        q.orderBy('b.created_at', p.order).offset(p.offset).limit(p.limit).execute(),
      ]);
      return { total: Number(n), list };
    },
    movedOrders: (batchId: number) =>
      db
        .selectFrom('orders')
        .select(['order_no'])
        .select((eb) => eb.fn.countAll<number>().over().as('n'))
        .where('batch_id', '=', batchId)
        .where('status', '<>', 'created')
        .limit(1)
        .executeTakeFirst(),
    /** A preview's notes (issue 12), kept beside the batch row (migration 2026-11-24T0420). */
    saveNotes: (batchId: number, notes: string) =>
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom('batch_order_notes').where('batch_id', '=', batchId).execute();
        await trx.insertInto('batch_order_notes').values({ batch_id: batchId, notes }).execute();
      }),
    notes: async (batchId: number): Promise<string | null> =>
      (await db.selectFrom('batch_order_notes').select('notes').where('batch_id', '=', batchId).executeTakeFirst())
        ?.notes ?? null,
    deleteBatch: (batchId: number) =>
      db.transaction().execute(async (trx) => {
        // Re-checked inside the transaction: an order printed meanwhile keeps the batch.
        const moved = await trx
          .selectFrom('orders')
          .select('id')
          .where('batch_id', '=', batchId)
          .where('status', '<>', 'created')
          .limit(1)
          .executeTakeFirst();
        if (moved) return false;
        const ids = trx.selectFrom('orders').select('id').where('batch_id', '=', batchId);
        await trx.deleteFrom('tracking_events').where('order_id', 'in', ids).execute();
        await trx.deleteFrom('order_items').where('order_id', 'in', ids).execute();
        await detachOrderEvents(trx, ids);
        await trx.deleteFrom('orders').where('batch_id', '=', batchId).execute();
        await trx.deleteFrom('batches').where('id', '=', batchId).execute();
        return true;
      }),
    /** Orders with their items for the workbook downloads (scoped), in batch order; compiled for the workbook worker. */
    ordersForExport: (scope: Scope, where: { batchId?: number; since?: string }) => {
      let q = inScope(
        db
          .selectFrom('orders as o')
          .innerJoin('batches as b', 'b.id', 'o.batch_id')
          .leftJoin('order_items as i', 'i.order_id', 'o.id')
          .select([
            'b.batch_no',
            'o.order_no',
            'o.waybill_no',
            'o.system_no',
            'o.channel_code',
            'o.status',
            'o.box_no',
            'o.recipient_name',
            'o.recipient_phone',
            'o.recipient_province',
            'o.recipient_city',
            'o.recipient_district',
            'o.recipient_address',
            'o.created_at',
            'i.jan',
            'i.name as item_name',
            'i.quantity',
            'i.unit_price',
            'i.currency',
          ]),
        'o.customer_id',
        scope,
      ).$call(visibleOrders(db, 'o'));
      if (where.batchId) q = q.where('o.batch_id', '=', where.batchId);
      if (where.since) q = q.where('b.created_at', '>=', where.since);
      return q.orderBy('b.id').orderBy('o.id').orderBy('i.line_no').limit(200_000).compile();
    },
    /** Each currency's decimals (a commit's prices are checked against them). */
    currencyDecimals: async () =>
      new Map(
        (await db.selectFrom('currencies').select(['code', 'decimals']).execute()).map((c) => [c.code, c.decimals]),
      ),
  };
}
export type BatchesRepository = ReturnType<typeof createBatchesRepository>;

/**
 * The small reference tables an order parse and the order rules read (each call, so edits apply
 * at once): the batch import's and the order review's parses alike.
 */
export async function parseReferenceData(db: Database) {
  const [channels, currencies, orderTypes, clearance] = await Promise.all([
    db.selectFrom('channels').select(['code', 'currency', 'origin']).orderBy('sort').execute(),
    db.selectFrom('currencies').select(['code', 'decimals']).orderBy('code').execute(),
    db.selectFrom('order_types').select('code').orderBy('code').execute(),
    db.selectFrom('clearance_companies').select('code').orderBy('code').execute(),
  ]);
  return {
    channels,
    currencies: currencies.map((c) => [c.code, Number(c.decimals)] as [string, number]),
    orderTypes: orderTypes.map((o) => o.code),
    clearanceCompanies: clearance.map((c) => c.code),
  };
}
