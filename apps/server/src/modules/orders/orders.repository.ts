import type { orders } from '@console/contract';
import { type Insertable, type Updateable, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { Scope } from '../../lib/scope.ts';
import { detachOrderEvents, recordOrderEvents } from '../../domain/order-events.ts';
import { visibleOrders } from '../../domain/order-writer.ts';
import { liveExportNomination } from '../export-nominations/index.ts';
import { createOrderListRepository, scopedOrders } from './orders.list.repository.ts';

/** The flags a user sets by hand: the four of `order/setFlag` and the print flag (spec §4). */
export type OrderFlag = orders.FlagName | 'printFlag';
const FLAG_COLUMN = {
  gnsUpdated: 'gns_updated',
  pushS: 'push_s',
  pushPrice: 'push_price',
  wholeSet: 'whole_set',
  printFlag: 'print_flag',
} as const satisfies Record<OrderFlag, string>;

/**
 * Status guards (finding 18 of issue 10). The condition that makes a write legal goes into the
 * write's own statement, never only into a read before it: a delete and a scan sent together
 * both passed their checks and both "succeeded". On PostgreSQL a guarded UPDATE/DELETE waits for
 * a concurrent writer of the row and then re-evaluates its WHERE on the committed row; on SQLite
 * writes are serialised, so the WHERE always sees the last commit.
 */
/** Orders that may still be changed: not received, shipped, released, cancelled or intercepted. */
export const CHANGEABLE_STATUSES = ['created', 'printed'] as const;
/** Orders that may be deleted: the changeable ones and cancelled ones. */
export const DELETABLE_STATUSES = ['created', 'printed', 'cancelled'] as const;
/** What else a guarded write requires of the row. */
export type Guard = {
  statuses: readonly string[];
  /** The order must be an error order (error_at set). */
  error?: boolean;
};

export type OrderRecord = Awaited<ReturnType<ReturnType<typeof createOrdersRepository>['find']>>;

/**
 * One order and its writes; the reads over many orders are orders.list.repository.ts, joined in
 * here so the service has one repository.
 */
export function createOrdersRepository(db: Database) {
  const scoped = (scope: Scope, hidden?: readonly unknown[] | null) => scopedOrders(db, scope, hidden);

  return {
    ...createOrderListRepository(db),
    /**
     * Claims the orders a write may touch inside the write's transaction: a guarded UPDATE that
     * takes the row locks (PostgreSQL) and returns only the ids whose status still allows it.
     * The caller answers 404/409 for the others and rolls back.
     */
    async claim(
      trx: Transaction<DB>,
      ids: readonly number[],
      guard: Guard,
      at: string,
      /** The version an edit form was loaded from: a row at another version is not claimed. */
      version?: number,
    ): Promise<number[]> {
      if (!ids.length) return [];
      let q = trx
        .updateTable('orders')
        .set({ updated_at: at })
        .where('id', 'in', [...ids])
        .where('status', 'in', [...guard.statuses])
        .where('intercepted', '=', 0);
      if (guard.error) q = q.where('error_at', 'is not', null);
      if (version !== undefined) q = q.where('version', '=', version);
      return (await q.returning('id').execute()).map((r) => r.id);
    },
    /** The order's version as this transaction wrote it (the database bumps it on every update). */
    async versionIn(trx: Transaction<DB>, id: number) {
      const r = await trx.selectFrom('orders').select('version').where('id', '=', id).executeTakeFirstOrThrow();
      return r.version;
    },
    /** What stays of deleted orders in the audit log (issue 36 #6): their numbers, owner and state. */
    tombstones(trx: Transaction<DB>, ids: readonly number[]) {
      return trx
        .selectFrom('orders')
        .select(['id', 'customer_id', 'order_no', 'waybill_no', 'system_no', 'status', 'channel_code', 'created_at'])
        .where('id', 'in', [...ids])
        .orderBy('id')
        .execute();
    },
    /** Orders of these that a bill charges or a shipment carries: records that must outlive them. */
    async kept(ids: readonly number[]) {
      const list = [...ids];
      const [charged, shipped] = await Promise.all([
        db.selectFrom('charges').select('order_id').where('order_id', 'in', list).execute(),
        db.selectFrom('shipment_orders').select('order_id').where('order_id', 'in', list).execute(),
      ]);
      return { charged: new Set(charged.map((r) => r.order_id)), shipped: new Set(shipped.map((r) => r.order_id)) };
    },
    /**
     * Deletes claimed orders with their items, events and export declaration; their ID cards stay,
     * unlinked, and an address batch's rows keep their text without the order.
     */
    async deleteClaimed(trx: Transaction<DB>, ids: readonly number[]) {
      const list = [...ids];
      await trx.deleteFrom('export_declarations').where('order_id', 'in', list).execute();
      await trx.updateTable('label_b_rows').set({ order_id: null }).where('order_id', 'in', list).execute();
      await trx.deleteFrom('order_items').where('order_id', 'in', list).execute();
      await trx.deleteFrom('tracking_events').where('order_id', 'in', list).execute();
      await trx.updateTable('id_cards').set({ order_id: null }).where('order_id', 'in', list).execute();
      await detachOrderEvents(trx, list);
      const r = await trx.deleteFrom('orders').where('id', 'in', list).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    /** Lock/state columns of some orders, read after a guard failed to say why. */
    async states(ids: readonly number[]) {
      if (!ids.length) return [];
      return db
        .selectFrom('orders')
        .select(['id', 'order_no', 'status', 'intercepted', 'error_at'])
        .where('id', 'in', [...ids])
        .execute();
    },
    /**
     * Resolves or releases abnormal orders; only rows that were abnormal change, and only their
     * ids are returned, so events are written for exactly those (finding 10 of issue 10).
     */
    async settleAbnormal(trx: Transaction<DB>, ids: readonly number[], at: string) {
      if (!ids.length) return [];
      // Releasing an abnormal order lets it through the office's check; it is not the clearance
      // company's release (status `released`, domain/order-life.ts), so `released` stays as it is.
      const rows = await trx
        .updateTable('orders')
        .set({ abnormal_rule: null, abnormal_reason: null, abnormal_at: null, updated_at: at })
        .where('id', 'in', [...ids])
        .where('abnormal_at', 'is not', null)
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    },
    async addEvents(trx: Transaction<DB>, events: Insertable<DB['tracking_events']>[]) {
      if (!events.length) return;
      await trx.insertInto('tracking_events').values(events).execute();
      // The webhook outbox beside the tracking events (domain/order-events.ts).
      await recordOrderEvents(
        trx,
        events.map((e) => ({ orderId: e.order_id, kind: e.kind, note: e.note ?? null })),
        String(events[0]?.at ?? ''),
      );
    },
    async updateOrder(trx: Transaction<DB>, id: number, changes: Updateable<DB['orders']>) {
      await trx.updateTable('orders').set(changes).where('id', '=', id).execute();
    },
    /** Sets one of an order's flags (`order/setFlag`, `order/setOrderFlag`); the orders are already in scope. */
    async setFlag(trx: Transaction<DB>, ids: readonly number[], flag: OrderFlag, value: boolean, at: string) {
      const r = await trx
        .updateTable('orders')
        .set({ [FLAG_COLUMN[flag]]: value ? 1 : 0, updated_at: at })
        .where('id', 'in', [...ids])
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async replaceItems(trx: Transaction<DB>, orderId: number, rows: Insertable<DB['order_items']>[]) {
      await trx.deleteFrom('order_items').where('order_id', '=', orderId).execute();
      await trx.insertInto('order_items').values(rows).execute();
    },
    item: (id: number) => db.selectFrom('order_items').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    itemOrder: (itemId: number) =>
      db.selectFrom('order_items').select('order_id').where('id', '=', itemId).executeTakeFirst(),
    async insertItem(trx: Transaction<DB>, row: Insertable<DB['order_items']>) {
      const r = await trx.insertInto('order_items').values(row).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },
    async updateItem(trx: Transaction<DB>, id: number, changes: Updateable<DB['order_items']>) {
      await trx.updateTable('order_items').set(changes).where('id', '=', id).execute();
    },
    /** Deletes one item and answers how many the order has left, counted inside the write. */
    async deleteItem(trx: Transaction<DB>, id: number, orderId: number) {
      await trx.deleteFrom('order_items').where('id', '=', id).execute();
      const left = await trx
        .selectFrom('order_items')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('order_id', '=', orderId)
        .executeTakeFirstOrThrow();
      return Number(left.n);
    },
    /** One order in scope with its customer code and batch, or undefined. */
    async find(scope: Scope, id: number) {
      return scoped(scope)
        .innerJoin('customers as c', 'c.id', 'o.customer_id')
        .leftJoin('batches as b', 'b.id', 'o.batch_id')
        .selectAll('o')
        .select(['c.code as customer_code', 'b.batch_no', 'b.receive_status as batch_receive_status'])
        .where('o.id', '=', id)
        .executeTakeFirst();
    },
    /** Scope-checked ids: the subset of `ids` the scope may touch. */
    async idsInScope(scope: Scope, ids: number[]) {
      const rows = await scoped(scope)
        .select(['o.id', 'o.status', 'o.intercepted', 'o.order_no'])
        .where('o.id', 'in', ids)
        .execute();
      return rows;
    },
    items: (orderId: number) =>
      db
        .selectFrom('order_items')
        .selectAll()
        .where('order_id', '=', orderId)
        .orderBy('line_no')
        .orderBy('id')
        .execute(),
    /** The order's trail: its creation (from the order row, see createdEvent) then the stored events. */
    async events(orderId: number) {
      const [order, stored] = await Promise.all([
        db.selectFrom('orders').select('created_at').where('id', '=', orderId).executeTakeFirst(),
        db
          .selectFrom('tracking_events as e')
          .leftJoin('users as u', 'u.id', 'e.created_by')
          .select(['e.kind', 'e.at', 'e.location', 'e.note', 'u.name as by'])
          .where('e.order_id', '=', orderId)
          .orderBy('e.at')
          .orderBy('e.id')
          .execute(),
      ]);
      return order ? [{ ...createdEvent(order.created_at), note: null, by: null }, ...stored] : stored;
    },
    /** Prices seen for a JAN in the customer's earlier orders, newest first. */
    async itemByJan(customerId: number, jan: string) {
      return db
        .selectFrom('order_items as i')
        .innerJoin('orders as o', 'o.id', 'i.order_id')
        .select(['i.name', 'i.brand', 'i.spec', 'i.unit_price', 'i.currency', 'i.origin', 'i.hazard_code', 'i.jan'])
        .where('o.customer_id', '=', customerId)
        .where('i.jan', '=', jan)
        .$call(visibleOrders(db, 'o'))
        .orderBy('i.id', 'desc')
        .limit(50)
        .execute();
    },
    async orderNoExists(customerId: number, orderNo: string) {
      const r = await db
        .selectFrom('orders')
        .select('id')
        .where('customer_id', '=', customerId)
        .where('order_no', '=', orderNo)
        .executeTakeFirst();
      return !!r;
    },
    /** A customer's export nomination that is not deleted, or undefined. */
    exportNomination: (customerId: number, id: number) => liveExportNomination(db, customerId, id),
    numberSegment: (id: number, channel: string) =>
      db
        .selectFrom('number_segments')
        .select(['id', 'customer_id'])
        .where('id', '=', id)
        .where('channel_code', '=', channel)
        .executeTakeFirst(),
    customer: (id: number) => db.selectFrom('customers').select(['id', 'code']).where('id', '=', id).executeTakeFirst(),
    numberSegments: (channel: string, customerId: number) =>
      db
        .selectFrom('number_segments')
        .select(['id', 'name', 'prefix', 'next_seq', 'last_seq'])
        .where('channel_code', '=', channel)
        .where((eb) => eb.or([eb('customer_id', 'is', null), eb('customer_id', '=', customerId)]))
        .orderBy('id')
        .execute(),
    async getSetting(userId: number, key: string) {
      const r = await db
        .selectFrom('user_settings')
        .select('value')
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .executeTakeFirst();
      return r ? (JSON.parse(r.value) as unknown) : undefined;
    },
    async putSetting(userId: number, key: string, value: unknown, now: string) {
      await db
        .insertInto('user_settings')
        .values({ user_id: userId, key, value: JSON.stringify(value), updated_at: now })
        .onConflict((oc) =>
          oc.columns(['user_id', 'key']).doUpdateSet({ value: JSON.stringify(value), updated_at: now }),
        )
        .execute();
    },
    /** Orders by waybill number for the public tracking page (no scope: the number is the key). */
    async byWaybills(waybillNos: string[]) {
      return db
        .selectFrom('orders')
        .select(['id', 'waybill_no', 'channel_code', 'recipient_name', 'status'])
        .where('waybill_no', 'in', waybillNos)
        .$call(visibleOrders(db, 'orders'))
        .execute();
    },
    /** The trails of several orders (see events), each order's creation first. */
    async eventsOf(orderIds: number[]) {
      if (orderIds.length === 0) return [];
      const [orders, stored] = await Promise.all([
        db.selectFrom('orders').select(['id', 'created_at']).where('id', 'in', orderIds).execute(),
        db
          .selectFrom('tracking_events')
          .select(['order_id', 'kind', 'at', 'location'])
          .where('order_id', 'in', orderIds)
          .orderBy('at')
          .orderBy('id')
          .execute(),
      ]);
      return [...orders.map((o) => ({ order_id: o.id, ...createdEvent(o.created_at) })), ...stored];
    },
    /** The order a scanned code names: waybill, split waybill or order number. */
    async forScan(code: string) {
      return db
        .selectFrom('orders as o')
        .innerJoin('customers as c', 'c.id', 'o.customer_id')
        .leftJoin('batches as b', 'b.id', 'o.batch_id')
        .select([
          'o.id',
          'o.order_no',
          'o.waybill_no',
          'o.status',
          'o.intercepted',
          'o.received_at',
          'o.batch_id',
          'c.code as customer_code',
          'b.batch_no',
        ])
        .where((eb) => eb.or([eb('o.waybill_no', '=', code), eb('o.split_waybill_no', '=', code)]))
        .$call(visibleOrders(db, 'o'))
        .orderBy('o.id', 'desc')
        .executeTakeFirst();
    },
    /**
     * Counts one hit in the current fixed window and returns the hits so far. Kept in
     * the database so every instance behind a load balancer shares the same budget.
     */
    async hit(key: string, windowStart: number) {
      const r = await db
        .insertInto('rate_limits')
        .values({ key, window_start: windowStart, hits: 1 })
        .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet({ hits: sql`rate_limits.hits + 1` }))
        .returning('hits')
        .executeTakeFirstOrThrow();
      if (r.hits === 1)
        await db
          .deleteFrom('rate_limits')
          .where('window_start', '<', windowStart - 3_600_000)
          .execute();
      return r.hits;
    },
  };
}
export type OrdersRepository = ReturnType<typeof createOrdersRepository>;

/**
 * An order's 'created' event is its own row's creation time, not a stored event: storing it
 * again doubled the rows an import writes (100,000 orders, 100,000 events and their index).
 */
export const createdEvent = (createdAt: string) => ({ kind: 'created', at: createdAt, location: null });
