import { randomBytes } from 'node:crypto';
import type { Kysely, SelectQueryBuilder, Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { presentV1Order, V1_ORDER_COLUMNS } from './v1-order.ts';

/**
 * The webhook outbox (issue 39 item 4; a batch's end: recordBatchEvent below; docs/decisions/2026-12-07-webhooks.md): every change of an
 * order's life is written as a tracking event (domain/order-life.ts, the orders module's edits,
 * the insert of order-writer.ts); each of those writers calls `recordOrderEvents` beside its
 * tracking insert, in the same transaction, so an event exists exactly when the change committed
 * and there is no second path that could tell another story. A relay (modules/webhooks) later
 * turns each event into one delivery per subscribed endpoint.
 *
 * Events are written only for customers with a webhook endpoint (any, even paused): a customer
 * without one would only fill a table nobody reads, and imports of 10,000 orders would pay for it.
 * Each event has an id (`evt_…`, the `webhook-id` of every delivery of it) and the order's next
 * sequence number: the order row is locked by the change's UPDATE (or just inserted) until the
 * transaction ends, so `max(seq) + 1` cannot race; the unique (order_id, seq) would refuse it.
 */

/** Tracking event kinds → webhook event types; a kind not listed is `order.updated`. */
const TYPE_OF_KIND: Record<string, string> = {
  created: 'order.created',
  printed: 'order.label_printed',
  received: 'order.received',
  shipped: 'order.shipped',
  released: 'order.clearance_passed',
  cancelled: 'order.cancelled',
  intercepted: 'order.intercepted',
  interceptionCancelled: 'order.interception_cancelled',
  errorFlagged: 'order.error_flagged',
  errorFixed: 'order.error_cleared',
  errorCleared: 'order.error_cleared',
};
export const webhookTypeOf = (kind: string) => TYPE_OF_KIND[kind] ?? 'order.updated';

export const newEventId = () => `evt_${randomBytes(16).toString('base64url')}`;

/** One order's change: its tracking kind, or an explicit webhook type (a clearance refusal). */
export interface OrderChange {
  orderId: number;
  kind: string;
  type?: string;
  /** A short text the event carries (a reason code, a note). */
  note?: string | null;
}

export async function recordOrderEvents(
  trx: Transaction<DB> | Kysely<DB>,
  changes: readonly OrderChange[],
  at: string,
): Promise<void> {
  if (!changes.length) return;
  for (let i = 0; i < changes.length; i += 1000) {
    const chunk = changes.slice(i, i + 1000);
    const ids = [...new Set(chunk.map((c) => c.orderId))];
    const rows = await trx
      .selectFrom('orders as o')
      .select([
        ...V1_ORDER_COLUMNS,
        (eb) =>
          eb
            .selectFrom('webhook_events as e')
            .select((e) => e.fn.max('e.seq').as('m'))
            .whereRef('e.order_id', '=', 'o.id')
            .as('last_seq'),
      ])
      .where('o.id', 'in', ids)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('webhook_endpoints as w')
            .select('w.id')
            .whereRef('w.customer_id', '=', 'o.customer_id')
            .where('w.deleted_at', 'is', null),
        ),
      )
      .execute();
    if (!rows.length) continue;
    const byId = new Map(rows.map((r) => [r.id, { row: r, seq: Number(r.last_seq ?? 0) }]));
    const values = [];
    for (const c of chunk) {
      const o = byId.get(c.orderId);
      if (!o) continue;
      o.seq += 1;
      const id = newEventId();
      const type = c.type ?? webhookTypeOf(c.kind);
      const r = o.row;
      // The body sent, fixed now: the order as this change left it (v1's order shape).
      const payload = JSON.stringify({
        id,
        type,
        timestamp: at,
        sequence: o.seq,
        data: {
          order: presentV1Order(r),
          ...(c.note ? { note: c.note } : {}),
        },
      });
      values.push({ id, customer_id: r.customer_id, order_id: r.id, seq: o.seq, type, payload, occurred_at: at });
    }
    if (values.length) await trx.insertInto('webhook_events').values(values).execute();
  }
}

/** The webhook type of a batch's move to this status: its end (committed, failed), nothing else. */
export const BATCH_EVENT_OF_STATUS: Record<string, 'batch.committed' | 'batch.failed' | undefined> = {
  done: 'batch.committed',
  failed: 'batch.failed',
};

/**
 * A batch's end as an event (issue 39 item 4): called where the batch's status moves
 * (batches.repository `updateFrom`, the one writer of a batch's status), in the transaction that
 * moved it, after the move, so the body is the batch as that move left it (v1's batch shape, as
 * `GET /batches/{id}` gives it). A batch ends once (updateFrom moves it only from the status it was
 * seen in), so its one event is `sequence` 1. Only for a customer with an endpoint, as orders' events.
 */
export async function recordBatchEvent(
  trx: Transaction<DB> | Kysely<DB>,
  batchId: number,
  type: 'batch.committed' | 'batch.failed',
  at: string,
): Promise<void> {
  const b = await trx
    .selectFrom('batches as b')
    .select([
      'b.id',
      'b.batch_no',
      'b.customer_id',
      'b.channel_code',
      'b.status',
      'b.progress',
      'b.total_rows',
      'b.valid_rows',
      'b.invalid_rows',
      'b.order_count',
      'b.receive_status',
      'b.error_message',
      'b.created_at',
      'b.updated_at',
    ])
    .where('b.id', '=', batchId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('webhook_endpoints as w')
          .select('w.id')
          .whereRef('w.customer_id', '=', 'b.customer_id')
          .where('w.deleted_at', 'is', null),
      ),
    )
    .executeTakeFirst();
  if (!b) return;
  const id = newEventId();
  const batch = {
    id: b.id,
    batchNo: b.batch_no,
    customerId: b.customer_id,
    channel: b.channel_code,
    status: b.status,
    progress: b.progress,
    totalRows: b.total_rows,
    validRows: b.valid_rows,
    invalidRows: b.invalid_rows,
    orderCount: b.order_count,
    receiveStatus: b.receive_status,
    errorMessage: b.error_message,
    createdAt: b.created_at,
    updatedAt: b.updated_at,
  };
  const payload = JSON.stringify({ id, type, timestamp: at, sequence: 1, data: { batch } });
  await trx
    .insertInto('webhook_events')
    .values({ id, customer_id: b.customer_id, order_id: null, seq: null, type, payload, occurred_at: at })
    .execute();
}

/**
 * A bill's step as an event (`bill.issued`, `bill.paid`; issue 39 item 4): called by the bills
 * service in the transaction that moves it (bills.repository `setStatus` moves a bill only from the
 * step before, so each once), with the bill as that transaction left it. `sequence` 1 when issued,
 * 2 when paid. Only for a customer with an endpoint, as orders' events.
 */
export async function recordBillEvent(
  trx: Transaction<DB> | Kysely<DB>,
  bill: { customerId: number } & Record<string, unknown>,
  at: string,
  type: 'bill.issued' | 'bill.paid',
): Promise<void> {
  const endpoint = await trx
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('customer_id', '=', bill.customerId)
    .where('deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  if (!endpoint) return;
  const id = newEventId();
  const sequence = type === 'bill.paid' ? 2 : 1;
  const payload = JSON.stringify({ id, type, timestamp: at, sequence, data: { bill } });
  await trx
    .insertInto('webhook_events')
    .values({ id, customer_id: bill.customerId, order_id: null, seq: null, type, payload, occurred_at: at })
    .execute();
}

/**
 * Before orders are deleted (a user's delete, a batch deleted or its staged orders removed), in the
 * same transaction: their outbox events let go of them, or the reference refused the delete (a
 * customer with a webhook endpoint could not delete an order: 400 `dbInvalidInput`). Events not yet
 * relayed are dropped, so nothing is sent about an order that is gone (a staged batch's orders never
 * existed for the customer); events relayed keep their body and their delivery log, without the link.
 */
export async function detachOrderEvents(
  trx: Transaction<DB>,
  orders: readonly number[] | SelectQueryBuilder<DB, 'orders', { id: number }>,
): Promise<void> {
  if (Array.isArray(orders) && !orders.length) return;
  const ids = orders as readonly number[];
  await trx.deleteFrom('webhook_events').where('order_id', 'in', ids).where('dispatched_at', 'is', null).execute();
  await trx.updateTable('webhook_events').set({ order_id: null }).where('order_id', 'in', ids).execute();
}
