import { pageOf } from '../../db/paged.ts';
import type { storageOrders as C } from '@console/contract';
import { type Insertable, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import type { DB } from '../../db/schema.ts';
import { visibleOrders } from '../../domain/order-writer.ts';
import { inScope, type Scope } from '../../lib/scope.ts';
import { chinaDayStart } from '../orders/index.ts';
import { rowsInOrder } from '../../db/rows-in-order.ts';

type Q = Database | Transaction<DB>;
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
/** Values per IN list / INSERT: under both databases' bound-parameter limits. */
const CHUNK = 500;

const SORT = {
  createdAt: 's.created_at',
  lineCount: 's.line_count',
  receivedCount: 's.received_count',
} as const;

/** Orders' weights in one column, one CASE update per chunk rather than a statement per parcel. */
async function setWeights(
  trx: Q,
  column: 'gross_weight_g' | 'declared_weight_g',
  weights: readonly { id: number; weightG: number }[],
) {
  for (let i = 0; i < weights.length; i += CHUNK) {
    const chunk = weights.slice(i, i + CHUNK);
    // The cast: PostgreSQL types a bare parameter of a CASE as text.
    const cases = sql.join(
      chunk.map((w) => sql`when ${w.id} then cast(${w.weightG} as integer)`),
      sql` `,
    );
    await trx
      .updateTable('orders')
      .set({ [column]: sql<number>`case id ${cases} end` })
      .where(
        'id',
        'in',
        chunk.map((w) => w.id),
      )
      .execute();
  }
}

/** What storing and shipping read of an order found by its waybill. */
export interface FoundOrder {
  id: number;
  order_no: string;
  waybill_no: string | null;
  split_waybill_no: string | null;
  customer_id: number;
  customer_code: string;
  status: string;
  received_at: string | null;
  /** Measured by the warehouse (charges use it). */
  gross_weight_g: number | null;
  /** Declared by a pre-alert. */
  declared_weight_g: number | null;
}

/** Every query of storage and shipments; reads of a storage order go through the caller's scope. */
export function createStorageOrdersRepository(db: Database) {
  /** An order as the scans see it (FoundOrder), visible ones only (not of a batch still being committed). */
  const found = (trx: Q) =>
    trx
      .selectFrom('orders as o')
      .innerJoin('customers as c', 'c.id', 'o.customer_id')
      .select([
        'o.id',
        'o.order_no',
        'o.waybill_no',
        'o.split_waybill_no',
        'o.customer_id',
        'c.code as customer_code',
        'o.status',
        'o.received_at',
        'o.gross_weight_g',
        'o.declared_weight_g',
      ])
      .$call(visibleOrders(db, 'o'));
  const header = (q: Q) =>
    q
      .selectFrom('storage_orders as s')
      .leftJoin('customers as c', 'c.id', 's.customer_id')
      .innerJoin('users as u', 'u.id', 's.created_by')
      .selectAll('s')
      .select(['c.code as customer_code', 'u.display_name as created_by_name']);
  const shipmentHeader = (q: Q) =>
    q
      .selectFrom('shipments as sh')
      .innerJoin('users as u', 'u.id', 'sh.created_by')
      .selectAll('sh')
      .select('u.display_name as created_by_name');

  return {
    customerExists: async (id: number) =>
      !!(await db.selectFrom('customers').select('id').where('id', '=', id).executeTakeFirst()),

    find: (q: Q, scope: Scope, id: number) =>
      inScope(header(q), 's.customer_id', scope).where('s.id', '=', id).executeTakeFirst(),

    insertStorageOrder: (trx: Q, row: Insertable<DB['storage_orders']>) =>
      trx.insertInto('storage_orders').values(row).returning('id').executeTakeFirstOrThrow(),

    /** Counters move in the statement, so concurrent additions to one storage order add up; the new counts back. */
    addCounts: (trx: Q, id: number, lines: number, received: number, at: string) =>
      trx
        .updateTable('storage_orders')
        .set((eb) => ({
          line_count: eb('line_count', '+', lines),
          received_count: eb('received_count', '+', received),
          refused_count: eb('refused_count', '+', lines - received),
          updated_at: at,
        }))
        .where('id', '=', id)
        .returning(['line_count', 'received_count', 'refused_count', 'updated_at'])
        .executeTakeFirstOrThrow(),

    /** The codes already stored by this storage order (a second entry of one is a duplicate). */
    async storedCodes(trx: Q, storageOrderId: number, codes: readonly string[]) {
      const out = new Set<string>();
      for (let i = 0; i < codes.length; i += CHUNK) {
        const rows = await trx
          .selectFrom('storage_order_lines')
          .select('code')
          .where('storage_order_id', '=', storageOrderId)
          .where('code', 'in', codes.slice(i, i + CHUNK))
          .where('outcome', 'in', ['received', 'preAlerted'])
          .execute();
        for (const r of rows) out.add(r.code);
      }
      return out;
    },

    /** Orders by waybill (or split waybill), every customer's: the caller applies its scope. */
    async byWaybills(trx: Q, codes: readonly string[]): Promise<FoundOrder[]> {
      const out: FoundOrder[] = [];
      for (let i = 0; i < codes.length; i += CHUNK) {
        const chunk = codes.slice(i, i + CHUNK);
        const q = (column: 'o.waybill_no' | 'o.split_waybill_no') => found(trx).where(column, 'in', chunk);
        // Two index lookups rather than one OR, which SQLite may answer with a scan; the split
        // waybills only for the codes no waybill matched (a scan of a whole parcel needs one query).
        const whole = await q('o.waybill_no').execute();
        out.push(...whole);
        const matched = new Set(whole.map((o) => o.waybill_no));
        const rest = chunk.filter((c) => !matched.has(c));
        if (rest.length) out.push(...(await q('o.split_waybill_no').where('o.split_waybill_no', 'in', rest).execute()));
      }
      return out;
    },

    async byIds(trx: Q, ids: readonly number[]): Promise<FoundOrder[]> {
      const out: FoundOrder[] = [];
      for (let i = 0; i < ids.length; i += CHUNK) {
        out.push(
          ...(await found(trx)
            .where('o.id', 'in', ids.slice(i, i + CHUNK))
            .execute()),
        );
      }
      return out;
    },

    /** Orders' gross weights (g) as weighed at the scan (or a re-weigh). */
    setGrossWeights: (trx: Q, weights: readonly { id: number; weightG: number }[]) =>
      setWeights(trx, 'gross_weight_g', weights),
    /** Weights declared by a pre-alert, kept apart from the measured ones. */
    setDeclaredWeights: (trx: Q, weights: readonly { id: number; weightG: number }[]) =>
      setWeights(trx, 'declared_weight_g', weights),

    /** Minor-unit places of a currency (2 when unknown, as the statements show it). */
    currencyDecimals: async (trx: Q, code: string) =>
      (await trx.selectFrom('currencies').select('decimals').where('code', '=', code).executeTakeFirst())?.decimals ??
      2,

    /** A received order's measured weight, its row held until the caller commits (a re-weigh). */
    async receivedWeight(trx: Q, id: number) {
      const q = trx
        .selectFrom('orders as o')
        .select(['o.id', 'o.customer_id', 'o.received_at', 'o.gross_weight_g'])
        .where('o.id', '=', id)
        .$call(visibleOrders(db, 'o'));
      return (dialectOf(trx) === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
    },

    /**
     * Which of these orders still exist, held (PostgreSQL: FOR KEY SHARE) so none is deleted before
     * the caller's lines referencing them commit; SQLite's one writer already keeps deletes out.
     */
    async holdOrders(trx: Q, ids: readonly number[]) {
      const out = new Set<number>();
      const wanted = [...new Set(ids)];
      for (let i = 0; i < wanted.length; i += CHUNK) {
        const q = trx
          .selectFrom('orders')
          .select('id')
          .where('id', 'in', wanted.slice(i, i + CHUNK));
        for (const r of await (dialectOf(trx) === 'postgres' ? q.forKeyShare() : q).execute()) out.add(r.id);
      }
      return out;
    },

    async insertLines(trx: Q, rows: Omit<DB['storage_order_lines'], 'id'>[]) {
      const ids: number[] = [];
      for (let i = 0; i < rows.length; i += CHUNK) {
        const r = await trx
          .insertInto('storage_order_lines')
          .values(rows.slice(i, i + CHUNK))
          .returning('id')
          .execute();
        ids.push(...r.map((x) => x.id));
      }
      return ids;
    },

    async page(scope: Scope, f: C.StorageOrderListRequest) {
      let q = inScope(db.selectFrom('storage_orders as s'), 's.customer_id', scope);
      if (f.storageNo) q = q.where('s.storage_no', '=', f.storageNo.toUpperCase());
      if (f.method) q = q.where('s.method', '=', f.method);
      if (f.origin) q = q.where('s.origin', '=', f.origin);
      if (f.customerId) q = q.where('s.customer_id', '=', f.customerId);
      if (f.status === 'received') q = q.where('s.refused_count', '=', 0).where('s.received_count', '>', 0);
      if (f.status === 'partial') q = q.where('s.refused_count', '>', 0).where('s.received_count', '>', 0);
      if (f.status === 'refused') q = q.where('s.received_count', '=', 0);
      if (f.dateFrom) q = q.where('s.created_at', '>=', chinaDayStart(f.dateFrom));
      if (f.dateTo) q = q.where('s.created_at', '<', chinaDayStart(nextDay(f.dateTo)));
      const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const ids = await q
        .select('s.id')
        .orderBy(SORT[f.sort], f.order)
        .orderBy('s.id', f.order)
        .offset(f.offset)
        .limit(f.limit)
        .execute();
      const rows = await rowsInOrder(ids, (page) => header(db).where('s.id', 'in', page).execute());
      return { total: Number(n), rows };
    },

    /** A page of a storage order's lines with each order as it is now. */
    async lines(
      storageOrderId: number,
      f: { offset: number; limit: number; order: 'asc' | 'desc'; result?: 'ok' | 'refused'; code?: string },
    ) {
      let q = db
        .selectFrom('storage_order_lines as l')
        .leftJoin('orders as o', 'o.id', 'l.order_id')
        .leftJoin('customers as c', 'c.id', 'o.customer_id')
        .where('l.storage_order_id', '=', storageOrderId);
      if (f.result === 'ok') q = q.where('l.outcome', 'in', ['received', 'preAlerted']);
      if (f.result === 'refused') q = q.where('l.outcome', 'not in', ['received', 'preAlerted']);
      if (f.code) q = q.where('l.code', '=', f.code.toUpperCase());
      return pageOf(
        q,
        (q) =>
          q
            .select([
              'l.id',
              'l.code',
              'l.outcome',
              'l.message_key',
              'l.gross_weight_g',
              'l.created_at',
              'o.gross_weight_g as measured_weight_g',
              'o.declared_weight_g',
              'o.id as order_id',
              'o.order_no',
              'o.waybill_no',
              'o.status',
              'o.received_at',
              'c.code as customer_code',
            ])
            .orderBy('l.id', f.order),
        f,
      );
    },

    // ---- shipments -------------------------------------------------------
    findShipment: (q: Q, id: number) => shipmentHeader(q).where('sh.id', '=', id).executeTakeFirst(),
    insertShipment: (trx: Q, row: Omit<DB['shipments'], 'id'>) =>
      trx.insertInto('shipments').values(row).returning('id').executeTakeFirstOrThrow(),
    async addToShipment(trx: Q, shipmentId: number, orderIds: readonly number[], at: string) {
      for (let i = 0; i < orderIds.length; i += CHUNK) {
        await trx
          .insertInto('shipment_orders')
          .values(
            orderIds.slice(i, i + CHUNK).map((order_id) => ({ shipment_id: shipmentId, order_id, created_at: at })),
          )
          .execute();
      }
      return trx
        .updateTable('shipments')
        .set((eb) => ({ order_count: eb('order_count', '+', orderIds.length), updated_at: at }))
        .where('id', '=', shipmentId)
        .returning(['order_count', 'updated_at'])
        .executeTakeFirstOrThrow();
    },
    async shipments(f: { offset: number; limit: number; order: 'asc' | 'desc'; shipmentNo?: string }) {
      let q = db.selectFrom('shipments as sh');
      if (f.shipmentNo) q = q.where('sh.shipment_no', '=', f.shipmentNo.toUpperCase());
      const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await shipmentHeader(db)
        .$if(!!f.shipmentNo, (qb) => qb.where('sh.shipment_no', '=', f.shipmentNo!.toUpperCase()))
        .orderBy('sh.id', f.order)
        .offset(f.offset)
        .limit(f.limit)
        .execute();
      return { total: Number(n), rows };
    },
    /** Received orders that may ship (not intercepted, no error flag). */
    async shippable(f: { offset: number; limit: number; order: 'asc' | 'desc'; code?: string; customerId?: number }) {
      let q = db
        .selectFrom('orders as o')
        .where('o.status', '=', 'received')
        .where('o.intercepted', '=', 0)
        .where('o.error_at', 'is', null)
        .$call(visibleOrders(db, 'o'));
      if (f.code)
        q = q.where((eb) => eb.or([eb('o.waybill_no', '=', f.code!.toUpperCase()), eb('o.order_no', '=', f.code!)]));
      if (f.customerId) q = q.where('o.customer_id', '=', f.customerId);
      return pageOf(
        q,
        (q) =>
          q
            .innerJoin('customers as c', 'c.id', 'o.customer_id')
            .select([
              'o.id',
              'o.order_no',
              'o.waybill_no',
              'c.code as customer_code',
              'o.status',
              'o.received_at',
              'o.recipient_city',
              (eb) =>
                eb
                  .selectFrom('order_items as i')
                  .whereRef('i.order_id', '=', 'o.id')
                  .select((e) => e.fn.countAll<number>().as('n'))
                  .as('item_count'),
            ])
            .orderBy('o.received_at', f.order)
            .orderBy('o.id', f.order),
        f,
      );
    },
    /** The manifest's rows: the shipment's orders with their items and the currency's decimals. */
    async manifest(shipmentId: number) {
      const orders = await db
        .selectFrom('shipment_orders as so')
        .innerJoin('orders as o', 'o.id', 'so.order_id')
        .innerJoin('customers as c', 'c.id', 'o.customer_id')
        .leftJoin('currencies as cur', 'cur.code', 'o.currency')
        .where('so.shipment_id', '=', shipmentId)
        .select([
          'o.id',
          'o.waybill_no',
          'o.order_no',
          'c.code as customer_code',
          'o.recipient_province',
          'o.recipient_city',
          'o.total_amount',
          'o.currency',
          'cur.decimals',
        ])
        .orderBy('o.waybill_no')
        .execute();
      const items: { order_id: number; name: string; quantity: number }[] = [];
      const ids = orders.map((o) => o.id);
      for (let i = 0; i < ids.length; i += CHUNK) {
        items.push(
          ...(await db
            .selectFrom('order_items')
            .select(['order_id', 'name', 'quantity'])
            .where('order_id', 'in', ids.slice(i, i + CHUNK))
            .orderBy('order_id')
            .orderBy('line_no')
            .execute()),
        );
      }
      return { orders, items };
    },
  };
}
export type StorageOrdersRepository = ReturnType<typeof createStorageOrdersRepository>;
export type StorageOrderRecord = NonNullable<Awaited<ReturnType<StorageOrdersRepository['find']>>>;
export type ShipmentRecord = NonNullable<Awaited<ReturnType<StorageOrdersRepository['findShipment']>>>;
