import { CompiledQuery, type Insertable, type Kysely, sql, type SqlBool, type Transaction } from 'kysely';
import { dialectOf } from '../db/dialect.ts';
import type { DB } from '../db/schema.ts';
import { AppError } from '../lib/errors.ts';
import { recordOrderEvents } from './order-events.ts';
import type { OrderInput } from './order-input.ts';
import { type WaybillGroup, waybillGroups, waybillKey, type WaybillKey } from './waybill-groups.ts';
import { type AllocatedWaybills, allocateWaybills } from './waybills.ts';

export interface InsertMeta {
  batchId: number | null;
  createdBy: number;
  /** ISO time of creation (the caller's clock). */
  now: string;
  /**
   * Waybill numbers reserved beforehand (reserveWaybills); by default they are reserved in the
   * caller's transaction, and a rollback gives them back.
   */
  waybills?: WaybillPlan;
  /** Called after each chunk with the number of orders written so far (progress bars). */
  onProgress?: (written: number) => void | Promise<void>;
}

export interface InsertedOrder {
  id: number;
  customerId: number;
  orderNo: string;
  waybillNo: string;
  systemNo: string;
}

// Under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters per statement.
const ORDER_CHUNK = 500;
const ROW_CHUNK = 1500;

/**
 * Batches whose orders are staged on SQLite: written in short transactions, so a 100,000-order
 * commit does not hold the only writer for seconds (another user's login or create waits one
 * chunk, not the commit), then shown together by the one statement that marks the batch done;
 * a failed commit removes them while they are still hidden. PostgreSQL commits a batch in one
 * transaction instead (its own snapshot hides the rows; see batch-confirm.ts commitJob).
 *
 * Kept in this process, per database: on SQLite only this process writes the file (the writer
 * lock is here), and what a previous process left staged is removed at start before anything is
 * served. A column or a join would cost every list: reading each row's batch_id made a 10,000-row
 * capped count 6-7 times slower, where the covering index alone answered it.
 */
const stagedBatches = new WeakMap<object, Set<number>>();

/** The staged batch ids, or undefined when none (nearly always): nothing to filter. */
export function hiddenBatches(db: Kysely<any>): number[] | undefined {
  const set = stagedBatches.get(db);
  return set?.size ? [...set] : undefined;
}

/** Marks a batch's orders staged (hidden) or not. */
export function setBatchHidden(db: Kysely<any>, batchId: number, hidden: boolean) {
  const set = stagedBatches.get(db) ?? stagedBatches.set(db, new Set()).get(db)!;
  if (hidden) set.add(batchId);
  else set.delete(batchId);
}

/**
 * Leaves out the orders of staged batches (`$call(visibleOrders(db, 'o'))`). Every query that
 * lists or finds orders for a user applies it; checks of taken order numbers must not (a staged
 * number is taken). `hidden` is for reusable queries, which bind the ids as values.
 */
export function visibleOrders(
  db: Kysely<any>,
  alias: string,
  hidden: readonly unknown[] | null = hiddenBatches(db) ?? null,
) {
  return <Q>(qb: Q): Q => {
    if (!hidden?.length) return qb;
    const batchId = sql.ref(`${alias}.batch_id`);
    return (qb as any).where(
      sql<SqlBool>`(${batchId} is null or ${batchId} not in (${sql.join(hidden.map((v) => sql`${v}`))}))`,
    );
  };
}

/** The order_items row of one item: the one mapping, used by create and update alike. */
export function itemRow(
  orderId: number,
  lineNo: number,
  it: OrderInput['items'][number],
): Insertable<DB['order_items']> {
  return {
    order_id: orderId,
    line_no: lineNo,
    jan: it.jan,
    name: it.name,
    brand: it.brand,
    spec: it.spec,
    quantity: it.quantity,
    unit_price: it.unitPrice,
    currency: it.currency,
    origin: it.origin,
    hazard_code: it.hazardCode,
  };
}

/** Waybill and system numbers reserved for a set of orders, handed out in order. */
export interface WaybillPlan {
  next(o: OrderInput): { waybill: string; systemNo: string; segmentId: number };
  /** The ranges reserved, one per group (a batch records them with itself: recordReservation). */
  ranges: AllocatedWaybills[];
}

/**
 * Reserves the waybill numbers of these orders: one allocation per (channel, customer, chosen
 * segment) — consecutive numbers, one guarded segment UPDATE each — handed out by `next` in the
 * order the orders are then given. A PostgreSQL batch commit reserves them on the database before
 * its long transaction: inside it, the segment's row lock would be held until the end, against
 * every single create of the channel — and a create whose order number collides with the batch
 * (waiting on the unique index for the batch) while holding that lock would deadlock with it.
 */
export async function reserveWaybills(
  q: Transaction<DB> | Kysely<DB>,
  orders: Iterable<WaybillKey>,
  now: string,
): Promise<WaybillPlan> {
  return reserveWaybillGroups(q, waybillGroups(orders), now);
}

export { type WaybillGroup, waybillGroups, type WaybillKey } from './waybill-groups.ts';

/**
 * `reserveWaybills` from the groups' counts, counted beforehand (a batch's parse counts them,
 * so its commit need not read every order before its first chunk).
 */
export async function reserveWaybillGroups(
  q: Transaction<DB> | Kysely<DB>,
  counts: readonly WaybillGroup[],
  now: string,
): Promise<WaybillPlan> {
  const day = now.slice(2, 10).replaceAll('-', '');
  const key = waybillKey;
  const groups = new Map<string, { first: WaybillKey; count: number; taken: number; a?: AllocatedWaybills }>();
  for (const c of counts) {
    const g = groups.get(key(c));
    if (g) g.count += c.count;
    else groups.set(key(c), { first: c, count: c.count, taken: 0 });
  }
  for (const g of groups.values()) {
    g.a = await allocateWaybills(q, g.first.channel, g.count, g.first.customerId, g.first.numberSegmentId);
  }
  return {
    next(o) {
      const g = groups.get(key(o));
      if (!g || g.taken >= g.count) throw new Error('reserveWaybills: an order that was not reserved');
      const k = g.taken++;
      const a = g.a!;
      // Unique because (segment, sequence) is: no extra round trip to find a free number.
      const systemNo = `S${day}${String(a.segmentId).padStart(3, '0')}${String(a.seqs[k]).padStart(10, '0')}`;
      return { waybill: a.numbers[k]!, systemNo, segmentId: a.segmentId };
    },
    ranges: [...groups.values()].map((g) => g.a!),
  };
}

/**
 * The one place orders are inserted: orders and their items, in multi-row chunks, inside the
 * caller's transaction (all or nothing). Waybill numbers are allocated here from each channel's
 * segment. The 'created' tracking event is the order row's own created_at (orders.repository).
 */
export async function insertOrders(
  trx: Transaction<DB> | Kysely<DB>,
  orders: readonly OrderInput[],
  meta: InsertMeta,
): Promise<InsertedOrder[]> {
  const out: InsertedOrder[] = new Array(orders.length);
  await holdExportNominations(trx, orders);
  const plan = meta.waybills ?? (await reserveWaybills(trx, orders, meta.now));
  const waybill: string[] = new Array(orders.length);
  const systemNo: string[] = new Array(orders.length);
  const segmentOf: number[] = new Array(orders.length);
  orders.forEach((o, i) => {
    const n = plan.next(o);
    waybill[i] = n.waybill;
    systemNo[i] = n.systemNo;
    segmentOf[i] = n.segmentId;
  });

  let written = 0;
  for (let start = 0; start < orders.length; start += ORDER_CHUNK) {
    const chunk = orders.slice(start, start + ORDER_CHUNK);
    const rows = chunk.map((o, k) => {
      const i = start + k;
      const total = o.items.reduce((s, it) => s + it.unitPrice * it.quantity, 0);
      return {
        customer_id: o.customerId,
        batch_id: meta.batchId,
        channel_code: o.channel,
        order_no: o.orderNo,
        waybill_no: waybill[i]!,
        system_no: systemNo[i]!,
        user_ref_no: o.userRefNo,
        box_no: o.boxNo,
        export_nomination_id: o.exportNominationId,
        number_segment_id: segmentOf[i]!,
        order_type: o.orderType,
        clearance_company_code: o.clearanceCompanyCode,
        status: 'created',
        recipient_name: o.recipient.name,
        recipient_id_card: o.recipient.idCard.toUpperCase(),
        recipient_phone: o.recipient.phone,
        recipient_email: o.recipient.email,
        recipient_province: o.recipient.province,
        recipient_city: o.recipient.city,
        recipient_district: o.recipient.district,
        recipient_street: o.recipient.street,
        recipient_address: o.recipient.address,
        recipient_postcode: o.recipient.postcode,
        sender_name: o.sender.name,
        sender_address: o.sender.address,
        sender_phone: o.sender.phone,
        currency: o.items[0]?.currency ?? 'JPY',
        total_amount: total,
        insured_amount: o.insuredAmount,
        remark: o.remark,
        tax_estimate: o.taxEstimate ?? null,
        abnormal_rule: o.abnormal?.abnormal_rule ?? null,
        abnormal_reason: o.abnormal?.abnormal_reason ?? null,
        abnormal_at: o.abnormal?.abnormal_at ?? null,
        created_by: meta.createdBy,
        created_at: meta.now,
        updated_at: meta.now,
      };
    });
    const ids = await bulkInsert(trx, 'orders', rows, ['id', 'system_no']);
    // RETURNING order is not guaranteed: match by the unique system number.
    const idBySystemNo = new Map(ids.map((r) => [r.system_no as string, r.id as number]));
    const items: Insertable<DB['order_items']>[] = [];
    chunk.forEach((o, k) => {
      const i = start + k;
      const id = idBySystemNo.get(systemNo[i]!)!;
      out[i] = { id, customerId: o.customerId, orderNo: o.orderNo, waybillNo: waybill[i]!, systemNo: systemNo[i]! };
      o.items.forEach((it, line) => items.push(itemRow(id, line + 1, it)));
    });
    for (let s = 0; s < items.length; s += ROW_CHUNK)
      await bulkInsert(trx, 'order_items', items.slice(s, s + ROW_CHUNK));
    // 'created' has no tracking row (the order's created_at is it), but it is a webhook event.
    await recordOrderEvents(
      trx,
      out.slice(start, start + chunk.length).map((o) => ({ orderId: o.id, kind: 'created' })),
      meta.now,
    );
    written += chunk.length;
    await meta.onProgress?.(written);
  }
  return out;
}

/**
 * The export nominations the orders name must still be live when they are written, and stay so
 * until the caller commits: callers check them early for a clear message, but a delete could land
 * between that check and this write. On PostgreSQL the rows are held FOR SHARE, which a delete's
 * FOR UPDATE waits for (export-nominations.repository deleteUnused), so the delete then sees these
 * orders and refuses; on SQLite a transaction takes the write lock as it begins (begin immediate),
 * so no delete runs between this read and the commit.
 */
async function holdExportNominations(trx: Transaction<DB> | Kysely<DB>, orders: readonly OrderInput[]) {
  const ids = [...new Set(orders.map((o) => o.exportNominationId).filter((id): id is number => id !== null))];
  if (ids.length === 0) return;
  const q = trx.selectFrom('export_nominations').select('id').where('id', 'in', ids).where('deleted_at', 'is', null);
  const live = await (dialectOf(trx) === 'postgres' ? q.forShare() : q).execute();
  if (live.length < ids.length) throw AppError.field('exportNominationId', 'notFound');
}

/**
 * Kysely's insert builder walks every value of every row (0.3 s of a 100,000-order import);
 * the SQL of an n-row insert depends only on the table, the columns and n, so it is compiled
 * once per shape and the rows' values are bound straight in. Every row must have the keys of
 * the first, in the same order (the row mappers above build them so).
 */
const insertShapes = new WeakMap<object, Map<string, CompiledQuery>>();
async function bulkInsert<T extends 'orders' | 'order_items'>(
  trx: Transaction<DB> | Kysely<DB>,
  table: T,
  rows: readonly Insertable<DB[T]>[],
  returning: readonly string[] = [],
): Promise<Record<string, unknown>[]> {
  if (!rows.length) return [];
  const columns = Object.keys(rows[0]!);
  const key = `${table}|${columns.join(',')}|${rows.length}|${returning.join(',')}`;
  // Keyed by the executor's adapter: the SQL differs between SQLite and PostgreSQL.
  const adapter = trx.getExecutor().adapter;
  const shapes = insertShapes.get(adapter) ?? insertShapes.set(adapter, new Map()).get(adapter)!;
  let query = shapes.get(key);
  if (!query) {
    const placeholder = Object.fromEntries(columns.map((c) => [c, null]));
    let builder = trx.insertInto(table).values(rows.map(() => placeholder) as never);
    if (returning.length) builder = builder.returning(returning as never) as never;
    query = builder.compile();
    if (shapes.size > 200) shapes.clear();
    shapes.set(key, query);
  }
  const params: unknown[] = new Array(rows.length * columns.length);
  let p = 0;
  // Object.values keeps insertion order: the same order as `columns` (see above). It is several
  // times faster than reading each row by the column names (a megamorphic keyed load).
  for (const row of rows) for (const v of Object.values(row)) params[p++] = v;
  if (p !== params.length) throw new Error(`bulkInsert ${table}: rows differ in their columns`);
  return (await trx.executeQuery(CompiledQuery.raw(query.sql, params))).rows as Record<string, unknown>[];
}
