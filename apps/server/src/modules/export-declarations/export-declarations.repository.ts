import { pageOf } from '../../db/paged.ts';
import { exportDeclarations as C } from '@console/contract';
import type { Insertable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { inScope, type Scope } from '../../lib/scope.ts';
import { chinaDayStart } from '../orders/index.ts';

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

const SORT = {
  orderCreatedAt: 'o.created_at',
  goodsJpy: 'o.total_amount',
  updatedAt: 'd.updated_at',
} as const;

/** Order numbers typed one per line or separated by commas/spaces. */
export const orderNosOf = (s: string) =>
  [
    ...new Set(
      s
        .split(/[\s,，;；]+/)
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ].slice(0, 1000);

export interface DeclarationRecord {
  order_id: number;
  order_no: string;
  waybill_no: string | null;
  customer_id: number;
  customer_code: string;
  batch_no: string | null;
  total_amount: number;
  currency: string;
  export_nomination_id: number | null;
  order_created_at: string | Date;
  product_name: string | null;
  amount_jpy: number | null;
  permit_file_id: number | null;
  permit_uploaded_at: string | Date | null;
  permit_emailed_at: string | Date | null;
  permit_email_error: string | null;
  permit_email_error_id: string | null;
  updated_at: string | Date | null;
  name_ja: string | null;
  name_en: string | null;
  corporate_number: string | null;
  address_en: string | null;
  receive_email: string | null;
}

/**
 * SQL of export declarations. The listed orders are goods leaving Japan (priced in JPY) over the
 * threshold, or any order that already has a declaration (a customer may declare below it).
 * Every read and write goes through the caller's scope.
 */
export function createExportDeclarationsRepository(db: Database) {
  const base = (scope: Scope) =>
    inScope(
      db
        .selectFrom('orders as o')
        .innerJoin('customers as c', 'c.id', 'o.customer_id')
        .leftJoin('export_declarations as d', 'd.order_id', 'o.id')
        .leftJoin('batches as b', 'b.id', 'o.batch_id')
        .leftJoin('export_nominations as n', 'n.id', 'o.export_nomination_id'),
      'o.customer_id',
      scope,
    );
  const columns = [
    'o.id as order_id',
    'o.order_no',
    'o.waybill_no',
    'o.customer_id',
    'c.code as customer_code',
    'b.batch_no',
    'o.total_amount',
    'o.currency',
    'o.export_nomination_id',
    'o.created_at as order_created_at',
    'd.product_name',
    'd.amount_jpy',
    'd.permit_file_id',
    'd.permit_uploaded_at',
    'd.permit_emailed_at',
    'd.permit_email_error',
    'd.permit_email_error_id',
    'd.updated_at',
    'n.name_ja',
    'n.name_en',
    'n.corporate_number',
    'n.address_en',
    'n.receive_email',
  ] as const;
  const filtered = (scope: Scope, f: C.ExportDeclarationFilters) => {
    let q = base(scope).where((eb) =>
      eb.or([
        eb.and([eb('o.currency', '=', 'JPY'), eb('o.total_amount', '>', C.DECLARATION_THRESHOLD_JPY)]),
        eb('d.order_id', 'is not', null),
      ]),
    );
    if (f.batchNo) q = q.where('b.batch_no', '=', f.batchNo);
    if (f.orderNos) {
      const nos = orderNosOf(f.orderNos);
      if (nos.length) q = q.where('o.order_no', 'in', nos);
    }
    if (f.declared === 'yes') q = q.where('d.order_id', 'is not', null);
    if (f.declared === 'no') q = q.where('d.order_id', 'is', null);
    if (f.dateFrom) q = q.where('o.created_at', '>=', chinaDayStart(f.dateFrom));
    if (f.dateTo) q = q.where('o.created_at', '<', chinaDayStart(nextDay(f.dateTo)));
    return q;
  };

  return {
    async page(scope: Scope, f: C.ExportDeclarationListRequest) {
      const q = filtered(scope, f);
      const { total, rows } = await pageOf(
        q,
        (q) => q.select(columns).orderBy(SORT[f.sort], f.order).orderBy('o.id', f.order),
        f,
        db,
      );
      return { total, rows: rows as DeclarationRecord[] };
    },

    async all(scope: Scope, f: C.ExportDeclarationFilters, limit = 50_000) {
      const rows = await filtered(scope, f)
        .select(columns)
        .orderBy('o.created_at', 'desc')
        .orderBy('o.id', 'desc')
        .limit(limit)
        .execute();
      return rows as DeclarationRecord[];
    },

    /** One order in the caller's scope, whether or not it is declarable. */
    async find(scope: Scope, orderId: number) {
      return (await base(scope).select(columns).where('o.id', '=', orderId).executeTakeFirst()) as
        DeclarationRecord | undefined;
    },

    /** An order's declaration whoever's it is (a job has no caller). */
    async findAny(orderId: number) {
      return (await base({ all: true }).select(columns).where('o.id', '=', orderId).executeTakeFirst()) as
        DeclarationRecord | undefined;
    },

    /** Orders of the scope by order number or waybill number (an upload's keys). */
    async byKeys(scope: Scope, by: 'order_no' | 'waybill_no', keys: string[]) {
      if (!keys.length) return [];
      const out: { id: number; key: string; customer_id: number; currency: string }[] = [];
      for (let i = 0; i < keys.length; i += 500) {
        const rows = await inScope(db.selectFrom('orders as o'), 'o.customer_id', scope)
          .select(['o.id', `o.${by} as key`, 'o.customer_id', 'o.currency'])
          .where(`o.${by}`, 'in', keys.slice(i, i + 500))
          .execute();
        out.push(...(rows as typeof out));
      }
      return out;
    },

    /** Write or clear declarations; one statement per order, in the caller's transaction. */
    async save(
      trx: Database,
      rows: { orderId: number; customerId: number; productName: string; amountJpy: number | null }[],
      by: number,
      at: string,
    ) {
      for (const r of rows) {
        if (r.amountJpy === null) {
          await trx.deleteFrom('export_declarations').where('order_id', '=', r.orderId).execute();
          continue;
        }
        await trx
          .insertInto('export_declarations')
          .values({
            order_id: r.orderId,
            customer_id: r.customerId,
            product_name: r.productName,
            amount_jpy: r.amountJpy,
            updated_by: by,
            updated_at: at,
          })
          .onConflict((oc) =>
            oc.column('order_id').doUpdateSet({
              product_name: r.productName,
              amount_jpy: r.amountJpy!,
              updated_by: by,
              updated_at: at,
            }),
          )
          .execute();
      }
    },

    /** A commit's run, written in the transaction that enqueues it. */
    insertRun: async (trx: Database, run: Insertable<DB['export_declaration_runs']>) =>
      (await trx.insertInto('export_declaration_runs').values(run).returning('id').executeTakeFirstOrThrow()).id,

    /** A run, whoever's (the job has no caller); with `userId`, only that user's. */
    findRun: (id: number, userId?: number) => {
      let q = db.selectFrom('export_declaration_runs').selectAll().where('id', '=', id);
      if (userId !== undefined) q = q.where('user_id', '=', userId);
      return q.executeTakeFirst();
    },

    /**
     * Moves a run on from a state not yet ended; false when it had ended (or is gone). In the
     * commit's transaction, it is what makes a second run of the same commit write nothing.
     */
    async endRun(
      q: Database,
      id: number,
      set: { status: 'running' | 'done' | 'failed'; error?: string | null; rows_key?: null },
      at: string,
    ) {
      const r = await q
        .updateTable('export_declaration_runs')
        .set({ ...set, updated_at: at })
        .where('id', '=', id)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async setPermit(trx: Database, orderId: number, fileId: number, by: number, at: string, mailError: string | null) {
      const r = await trx
        .updateTable('export_declarations')
        .set({
          permit_file_id: fileId,
          permit_uploaded_at: at,
          permit_uploaded_by: by,
          permit_emailed_at: null,
          permit_email_error: mailError,
          permit_email_error_id: null,
        })
        .where('order_id', '=', orderId)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** The mail's result, for the permit it was sent with: a permit replaced since keeps its own. */
    async setMailResult(
      orderId: number,
      fileId: number,
      emailedAt: string | null,
      error: { key: string; errorId: string | null } | null,
    ) {
      await db
        .updateTable('export_declarations')
        .set({
          permit_emailed_at: emailedAt,
          permit_email_error: error?.key ?? null,
          permit_email_error_id: error?.errorId ?? null,
        })
        .where('order_id', '=', orderId)
        .where('permit_file_id', '=', fileId)
        .execute();
    },

    /**
     * The queue gave up on the permit's mail: said on the permit it was for, only while its result
     * is still unknown (a mail recorded sent or failed keeps that; a replaced permit its own).
     */
    async mailGaveUp(orderId: number, fileId: number, key: string) {
      await db
        .updateTable('export_declarations')
        .set({ permit_email_error: key, permit_email_error_id: null })
        .where('order_id', '=', orderId)
        .where('permit_file_id', '=', fileId)
        .where('permit_emailed_at', 'is', null)
        .where('permit_email_error', 'is', null)
        .execute();
    },

    async permitFile(fileId: number) {
      return db.selectFrom('files').select(['name', 'mime', 'storage_key']).where('id', '=', fileId).executeTakeFirst();
    },

    /** The lines of declared orders for the broker's sheet, with the catalogue's category and weight. */
    async lines(orderIds: number[]) {
      const out: {
        order_id: number;
        line_no: number;
        name: string;
        jan: string | null;
        quantity: number;
        unit_price: number;
        currency: string;
        origin: string | null;
        export_category: string | null;
        category_en: string | null;
        net_weight_g: number | null;
      }[] = [];
      for (let i = 0; i < orderIds.length; i += 500) {
        const rows = await db
          .selectFrom('order_items as i')
          .innerJoin('orders as o', 'o.id', 'i.order_id')
          // The customer's catalogue entry of the same JAN: its export category and weight.
          .leftJoin('items as it', (j) => j.onRef('it.jan', '=', 'i.jan').onRef('it.customer_id', '=', 'o.customer_id'))
          .leftJoin('item_export_categories as ec', 'ec.code', 'it.export_category')
          .select([
            'i.order_id',
            'i.line_no',
            'i.name',
            'i.jan',
            'i.quantity',
            'i.unit_price',
            'i.currency',
            'i.origin',
            'it.export_category',
            'ec.name_en as category_en',
            'it.net_weight_g',
          ])
          .where('i.order_id', 'in', orderIds.slice(i, i + 500))
          .orderBy('i.order_id')
          .orderBy('i.line_no')
          .execute();
        out.push(...rows);
      }
      return out;
    },
    recipientOf(orderIds: number[]) {
      if (!orderIds.length) return Promise.resolve([]);
      return db
        .selectFrom('orders')
        .select([
          'id',
          'recipient_name',
          'recipient_province',
          'recipient_city',
          'recipient_district',
          'recipient_address',
        ])
        .where('id', 'in', orderIds)
        .execute();
    },
  };
}
export type DeclarationsRepository = ReturnType<typeof createExportDeclarationsRepository>;
