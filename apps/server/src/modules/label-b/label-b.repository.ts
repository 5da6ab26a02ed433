import { pageOf } from '../../db/paged.ts';
import type { labelB as C } from '@console/contract';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { LabelBRowsTable } from '../../db/schema-label-b.ts';
import { visibleOrders } from '../../domain/order-writer.ts';
import { inScope, type Scope } from '../../lib/scope.ts';

type Db = Database | Transaction<DB>;

const batchColumns = [
  'b.id',
  'b.batch_no',
  'b.customer_id',
  'c.code as customer_code',
  'b.status',
  'b.progress',
  'b.file_name',
  'b.row_count',
  'b.refused_count',
  'b.changed_count',
  'b.label_b_count',
  'b.error_key',
  'b.error_order_no',
  'b.created_by',
  'b.created_at',
  'b.updated_at',
] as const;

/** The only SQL of address-modification batches. */
export function createLabelBRepository(db: Database) {
  const batches = (q: Db) => q.selectFrom('label_b_batches as b').leftJoin('customers as c', 'c.id', 'b.customer_id');
  return {
    async page(scope: Scope, f: C.LabelBListRequest) {
      let q = inScope(batches(db), 'b.customer_id', scope);
      if (f.batchNo) q = q.where('b.batch_no', 'like', `%${f.batchNo}%`);
      if (f.status) q = q.where('b.status', '=', f.status);
      if (f.customerId) q = q.where('b.customer_id', '=', f.customerId);
      return pageOf(q, (q) => q.select(batchColumns).orderBy('b.created_at', f.order).orderBy('b.id', f.order), f, db);
    },

    find(scope: Scope, id: number, q: Db = db) {
      return inScope(batches(q), 'b.customer_id', scope).select(batchColumns).where('b.id', '=', id).executeTakeFirst();
    },

    /** The batch a job applies, read inside the job's transaction. */
    batchToApply(batchId: number, q: Db = db) {
      return q
        .selectFrom('label_b_batches')
        .select(['id', 'batch_no', 'customer_id', 'created_by', 'status'])
        .where('id', '=', batchId)
        .executeTakeFirstOrThrow();
    },

    rows(batchId: number, q: Db = db) {
      return q.selectFrom('label_b_rows').selectAll().where('batch_id', '=', batchId).orderBy('row_no').execute();
    },

    /** The customer's visible orders with these numbers, with what the dry run needs. */
    ordersByNo(customerId: number, orderNos: readonly string[]) {
      if (!orderNos.length) return Promise.resolve([]);
      return db
        .selectFrom('orders as o')
        .$call(visibleOrders(db, 'o'))
        .select([
          'o.id',
          'o.order_no',
          'o.status',
          'o.intercepted',
          'o.error_at',
          'o.print_count',
          'o.recipient_name',
          'o.recipient_phone',
          'o.recipient_province',
          'o.recipient_city',
          'o.recipient_district',
          'o.recipient_address',
        ])
        .where('o.customer_id', '=', customerId)
        .where('o.order_no', 'in', [...orderNos])
        .execute();
    },

    async insertDraft(
      trx: Transaction<DB>,
      batch: {
        batch_no: string;
        customer_id: number;
        file_name: string;
        row_count: number;
        refused_count: number;
        created_by: number;
        at: string;
      },
      rows: Omit<Insertable<LabelBRowsTable>, 'batch_id'>[],
    ) {
      const { id } = await trx
        .insertInto('label_b_batches')
        .values({
          batch_no: batch.batch_no,
          customer_id: batch.customer_id,
          status: 'draft',
          file_name: batch.file_name,
          row_count: batch.row_count,
          refused_count: batch.refused_count,
          created_by: batch.created_by,
          created_at: batch.at,
          updated_at: batch.at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (let i = 0; i < rows.length; i += 500) {
        await trx
          .insertInto('label_b_rows')
          .values(rows.slice(i, i + 500).map((r) => ({ ...r, batch_id: id })))
          .execute();
      }
      return id;
    },

    /** Draft → applying, once: a second confirm (or a concurrent one) changes nothing. */
    async startApplying(scope: Scope, id: number, at: string, trx: Kysely<DB> = db) {
      const r = await inScope(trx.updateTable('label_b_batches'), 'customer_id', scope)
        .set({ status: 'applying', progress: 0, updated_at: at })
        .where('id', '=', id)
        .where('status', '=', 'draft')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** Batches being applied, oldest first. */
    applying: () =>
      db
        .selectFrom('label_b_batches')
        .select(['id', 'customer_id'])
        .where('status', '=', 'applying')
        .orderBy('id')
        .execute(),

    async markChanged(trx: Transaction<DB>, batchId: number, orderIds: readonly number[], labelB: readonly number[]) {
      for (let i = 0; i < orderIds.length; i += 1000) {
        await trx
          .updateTable('label_b_rows')
          .set({ outcome: 'changed' })
          .where('batch_id', '=', batchId)
          .where('order_id', 'in', orderIds.slice(i, i + 1000))
          .where('outcome', '=', 'ok')
          .execute();
      }
      for (let i = 0; i < labelB.length; i += 1000) {
        await trx
          .updateTable('label_b_rows')
          .set({ label_b: 1 })
          .where('batch_id', '=', batchId)
          .where('order_id', 'in', labelB.slice(i, i + 1000))
          .execute();
      }
    },

    finish(
      q: Db,
      id: number,
      set: {
        status: 'done' | 'failed';
        changed_count?: number;
        label_b_count?: number;
        error_key?: string | null;
        error_order_no?: string | null;
      },
      at: string,
    ) {
      return q
        .updateTable('label_b_batches')
        .set({ ...set, progress: 100, updated_at: at })
        .where('id', '=', id)
        .execute();
    },

    /** Fails a batch still applying (the queue gave up on its job); one already ended is left as it is. */
    failApplying(q: Db, id: number, errorKey: string, at: string) {
      return q
        .updateTable('label_b_batches')
        .set({ status: 'failed', error_key: errorKey, progress: 100, updated_at: at })
        .where('id', '=', id)
        .where('status', '=', 'applying')
        .execute();
    },
  };
}
export type LabelBRepository = ReturnType<typeof createLabelBRepository>;
export type LabelBBatchRecord = NonNullable<Awaited<ReturnType<LabelBRepository['find']>>>;
export type LabelBRowRecord = Awaited<ReturnType<LabelBRepository['rows']>>[number];
