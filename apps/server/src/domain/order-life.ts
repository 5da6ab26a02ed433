import type { orders } from '@console/contract';
import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { chargeInterception, chargeShipment } from './pricing/charges.ts';
import { recordOrderEvents } from './order-events.ts';

/**
 * The order's life: its statuses, its two flags, and every transition between them. This is the
 * only code that changes an order's status, interception or error flag (spec §4): scanning,
 * storage, outbound, interceptions, clearance results, printing and the console all call
 * `transition()`, which checks the move in the UPDATE itself (a concurrent move wins or loses
 * whole), writes one tracking event per order moved in the same transaction, and says for every
 * order it did not move why not.
 *
 *   created → printed → received → shipped → released        (status)
 *   created | printed → cancelled
 *   intercepted: set before shipping, cleared by cancelling the interception; an intercepted
 *     order cannot be printed, received, shipped or cancelled
 *   error: set with a reason code (clearance refusal, a failed check), cleared when fixed; an
 *     error order cannot be printed or shipped
 */

export type OrderStatus = orders.OrderStatus;

/** What a transition reads of an order. */
export interface LifeState {
  status: string;
  intercepted: number;
  error_at: string | null;
}

export type Transition =
  'print' | 'receive' | 'ship' | 'release' | 'cancel' | 'intercept' | 'cancelInterception' | 'flagError' | 'clearError';

/** Who moves the orders, when and where (written on each tracking event). */
export interface TransitionBy {
  /** ISO time (the caller's clock). */
  at: string;
  /** The user, or null for a system move (a partner's webhook). */
  by: number | null;
  location?: string | null;
  /** Free text on the event: an interception reason, a cancel reason, a clearance remark. */
  note?: string | null;
  /** flagError: the reason code stored on the order (order-errors.ts). */
  reason?: string | null;
  /**
   * clearError only: an operator cleared the error by hand, without a fix (order/error/update2
   * with `clear`): the event says 'errorCleared', not 'errorFixed', so the history tells them apart.
   */
  byHand?: boolean;
  /**
   * flagError only: the refusal is the clearance company's result (modules/clearance): its webhook
   * event is `order.clearance_failed` rather than `order.error_flagged`.
   */
  clearance?: boolean;
}

type Set = Record<string, string | number | null | RawBuilder<unknown>>;

interface Rule {
  /** The statuses the order may be in. */
  from: readonly OrderStatus[];
  /** The interception flag must be set (true) or clear (false); undefined: either. */
  intercepted?: boolean;
  /** The error flag must be set (true) or clear (false); undefined: either. */
  error?: boolean;
  /** The columns written (updated_at is always written). */
  set(by: TransitionBy): Set;
  /** The tracking event written for each order moved. */
  event: string;
}

const ALIVE: readonly OrderStatus[] = ['created', 'printed', 'received', 'shipped', 'released'];

/** Every transition, in one table: the tests walk it. */
export const RULES: Readonly<Record<Transition, Rule>> = {
  // An error order's label would carry what is wrong (an address that cannot be resolved).
  print: {
    from: ['created', 'printed'],
    intercepted: false,
    error: false,
    set: () => ({ status: 'printed', print_count: sql`print_count + 1`, print_flag: 1 }),
    event: 'printed',
  },
  receive: {
    from: ['created', 'printed'],
    intercepted: false,
    set: (b) => ({ status: 'received', received_at: b.at }),
    event: 'received',
  },
  ship: {
    from: ['received'],
    intercepted: false,
    error: false,
    set: (b) => ({ status: 'shipped', shipped_at: b.at }),
    event: 'shipped',
  },
  // The clearance company's release is a fact: it ends an error the order may still carry.
  release: {
    from: ['shipped'],
    intercepted: false,
    set: () => ({ status: 'released', released: 1, error_at: null, error_reason: null }),
    event: 'released',
  },
  cancel: {
    from: ['created', 'printed'],
    intercepted: false,
    set: () => ({ status: 'cancelled' }),
    event: 'cancelled',
  },
  intercept: {
    from: ['created', 'printed', 'received'],
    intercepted: false,
    set: () => ({ intercepted: 1 }),
    event: 'intercepted',
  },
  cancelInterception: {
    from: ['created', 'printed', 'received'],
    intercepted: true,
    set: () => ({ intercepted: 0 }),
    event: 'interceptionCancelled',
  },
  // A new reason replaces the old one: the latest refusal is the one to fix.
  flagError: {
    from: ALIVE,
    set: (b) => ({ error_at: b.at, error_reason: b.reason ?? null }),
    event: 'errorFlagged',
  },
  // Fixed: the flag goes and the order waits for the next push to the clearance company.
  clearError: {
    from: ALIVE,
    error: true,
    set: () => ({ error_at: null, error_reason: null, push_s: 0 }),
    event: 'errorFixed',
  },
};

/** The status sequence, to tell "not yet" from "already". */
const ORDER: readonly OrderStatus[] = ['created', 'printed', 'received', 'shipped', 'released'];

/**
 * Why an order in state `s` cannot take transition `t` (a message key taking `{orderNo}`), or
 * null when it can. The same rule as the guarded UPDATE of `transition()`.
 */
export function refusal(s: LifeState, t: Transition): string | null {
  return refusalBy(RULES[t], s);
}

function refusalBy(r: Pick<Rule, 'from' | 'intercepted' | 'error'>, s: LifeState): string | null {
  if (s.status === 'cancelled' && !r.from.includes('cancelled')) return 'lifeCancelled';
  if (r.intercepted === false && s.intercepted === 1) return 'lifeIntercepted';
  if (r.intercepted === true && s.intercepted !== 1) return 'lifeNotIntercepted';
  if (r.error === true && !s.error_at) return 'lifeNotError';
  if (!r.from.includes(s.status as OrderStatus)) {
    const at = ORDER.indexOf(s.status as OrderStatus);
    const first = ORDER.indexOf(r.from[0]!);
    return at < first ? `lifeNotYet_${r.from[0]}` : `lifeAlready_${s.status}`;
  }
  if (r.error === false && s.error_at) return 'lifeErrorOrder';
  return null;
}

export interface Refused {
  id: number;
  /** Null when the order no longer exists. */
  orderNo: string | null;
  /** Message key (takes `{orderNo}`). */
  key: string;
}
export interface TransitionResult {
  /** The orders moved, each with one tracking event. */
  done: number[];
  refused: Refused[];
  /** receive: the receive status of each batch touched, after the move. */
  batches: { batchId: number; receiveStatus: orders.ReceiveStatus }[];
}

/**
 * Moves the orders `ids` by transition `t` in the caller's transaction: one guarded UPDATE (an
 * order that no longer qualifies is left as it is), one tracking event per order moved, and for
 * each order not moved the reason. Tenancy is the caller's: pass only ids in the caller's scope.
 */
export async function transition(
  trx: Transaction<DB>,
  t: Transition,
  ids: readonly number[],
  by: TransitionBy,
): Promise<TransitionResult> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return { done: [], refused: [], batches: [] };
  const rule = RULES[t];
  const moved: { id: number; batch_id: number | null }[] = [];
  // Chunks stay under both databases' bound-parameter limits.
  for (let i = 0; i < wanted.length; i += 5000) {
    const chunk = wanted.slice(i, i + 5000);
    let q = trx
      .updateTable('orders')
      .set({ ...rule.set(by), updated_at: by.at } as never)
      .where('id', 'in', chunk)
      .where('status', 'in', [...rule.from]);
    if (rule.intercepted !== undefined) q = q.where('intercepted', '=', rule.intercepted ? 1 : 0);
    if (rule.error !== undefined) q = q.where('error_at', rule.error ? 'is not' : 'is', null);
    moved.push(...(await q.returning(['id', 'batch_id']).execute()));
  }
  const done = moved.map((m) => m.id);
  const kind = t === 'clearError' && by.byHand ? 'errorCleared' : rule.event;
  const note = by.note ?? (t === 'flagError' ? (by.reason ?? null) : null);
  for (let i = 0; i < done.length; i += 1000) {
    await trx
      .insertInto('tracking_events')
      .values(
        done.slice(i, i + 1000).map((id) => ({
          order_id: id,
          kind,
          at: by.at,
          location: by.location ?? null,
          note,
          created_by: by.by,
        })),
      )
      .execute();
  }
  // The webhook outbox, beside the tracking events and in their transaction (order-events.ts).
  const type = t === 'flagError' && by.clearance ? 'order.clearance_failed' : undefined;
  await recordOrderEvents(
    trx,
    done.map((orderId) => ({ orderId, kind, type, note })),
    by.at,
  );
  // Charges arise with the move, in its transaction (issue 17): once per order (unique key).
  if (t === 'ship') await chargeShipment(trx, done, by.at, by.by);
  else if (t === 'intercept') await chargeInterception(trx, done, by.at, by.by);
  const doneSet = new Set(done);
  const rest = wanted.filter((id) => !doneSet.has(id));
  const refused: Refused[] = [];
  for (let i = 0; i < rest.length; i += 5000) {
    const chunk = rest.slice(i, i + 5000);
    const states = await trx
      .selectFrom('orders')
      .select(['id', 'order_no', 'status', 'intercepted', 'error_at'])
      .where('id', 'in', chunk)
      .execute();
    const byId = new Map(states.map((s) => [s.id, s]));
    for (const id of chunk) {
      const s = byId.get(id);
      refused.push(
        s
          ? { id, orderNo: s.order_no, key: refusal(s, t) ?? 'orderChangedMeanwhile' }
          : { id, orderNo: null, key: 'orderNotFound' },
      );
    }
  }
  const batches =
    t === 'receive'
      ? await refreshReceiveStatus(
          trx,
          moved.map((m) => m.batch_id).filter((b) => b !== null),
          by.at,
        )
      : [];
  return { done, refused, batches };
}

/**
 * A recipient's address change (modules/label-b) is allowed until the parcel leaves the
 * warehouse and never on an intercepted order (the interception may be about the address). The
 * error flag does not stop it: a new address is often the fix.
 */
export const ADDRESS_RULE = { from: ['created', 'printed', 'received'] as readonly OrderStatus[], intercepted: false };

/** Why the address of an order in state `s` cannot change (message key taking `{orderNo}`), or null. */
export const addressRefusal = (s: LifeState) => refusalBy(ADDRESS_RULE, s);

export interface AddressChange {
  id: number;
  name: string;
  phone: string;
  province: string;
  city: string;
  district: string;
  address: string;
}

/**
 * Changes the recipient address of each order in the caller's transaction: one guarded
 * UPDATE per order (ADDRESS_RULE checked in its WHERE, so an interception or a shipment that
 * lands meanwhile wins or loses whole), one 'addressChanged' tracking event per order changed.
 * An order whose label was already printed gets `label_b` set: its next label carries "B" and
 * a replacement label is due (`labelB` lists them: the hook for a relabel fee). Tenancy is the
 * caller's.
 */
export async function changeAddress(
  trx: Transaction<DB>,
  changes: readonly AddressChange[],
  by: TransitionBy,
): Promise<{ done: number[]; labelB: number[]; refused: Refused[] }> {
  const done: number[] = [];
  const labelB: number[] = [];
  const refused: Refused[] = [];
  for (const c of changes) {
    const row = await trx
      .updateTable('orders')
      .set({
        recipient_name: c.name,
        recipient_phone: c.phone,
        recipient_province: c.province,
        recipient_city: c.city,
        recipient_district: c.district,
        recipient_address: c.address,
        label_b: sql<number>`case when print_count > 0 then 1 else label_b end`,
        updated_at: by.at,
      })
      .where('id', '=', c.id)
      .where('status', 'in', [...ADDRESS_RULE.from])
      .where('intercepted', '=', 0)
      .returning(['id', 'label_b'])
      .executeTakeFirst();
    if (!row) {
      const s = await trx
        .selectFrom('orders')
        .select(['order_no', 'status', 'intercepted', 'error_at'])
        .where('id', '=', c.id)
        .executeTakeFirst();
      refused.push(
        s
          ? { id: c.id, orderNo: s.order_no, key: addressRefusal(s) ?? 'orderChangedMeanwhile' }
          : { id: c.id, orderNo: null, key: 'orderNotFound' },
      );
      continue;
    }
    done.push(row.id);
    if (row.label_b === 1) labelB.push(row.id);
  }
  for (let i = 0; i < done.length; i += 1000) {
    await trx
      .insertInto('tracking_events')
      .values(
        done.slice(i, i + 1000).map((id) => ({
          order_id: id,
          kind: 'addressChanged',
          at: by.at,
          location: by.location ?? null,
          note: by.note ?? null,
          created_by: by.by,
        })),
      )
      .execute();
  }
  await recordOrderEvents(
    trx,
    done.map((orderId) => ({ orderId, kind: 'addressChanged' })),
    by.at,
  );
  return { done, labelB, refused };
}

/** A batch's receive status from its orders: none, partly or all received (spec §4). */
export async function refreshReceiveStatus(trx: Transaction<DB>, batchIds: readonly number[], at: string) {
  const out: TransitionResult['batches'] = [];
  for (const batchId of new Set(batchIds)) {
    const c = await trx
      .selectFrom('orders')
      .select([(eb) => eb.fn.countAll<number>().as('total'), (eb) => eb.fn.count<number>('received_at').as('received')])
      .where('batch_id', '=', batchId)
      .where('status', '!=', 'cancelled')
      .executeTakeFirstOrThrow();
    const received = Number(c.received);
    const receiveStatus: orders.ReceiveStatus =
      received === 0 ? 'none' : received >= Number(c.total) ? 'all' : 'partial';
    await trx
      .updateTable('batches')
      .set({ receive_status: receiveStatus, updated_at: at })
      .where('id', '=', batchId)
      .execute();
    out.push({ batchId, receiveStatus });
  }
  return out;
}
