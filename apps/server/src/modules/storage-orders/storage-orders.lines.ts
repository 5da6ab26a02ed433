import { orders, type storageOrders as C } from '@console/contract';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { transition } from '../../domain/order-life.ts';
import type { FoundOrder } from './storage-orders.repository.ts';

/**
 * What becomes of a storage order's planned lines: the warehouse's scan receives them, a
 * customer's or agent's pre-alert only announces them (issue 26: receiving and weighing are the
 * warehouse's).
 */

/** A line before it is stored: what was entered and what became of it. */
export interface Planned {
  code: string;
  row: number;
  weightG: number | null;
  order: FoundOrder | null;
  outcome: C.StorageOutcome;
  key: string;
}

/** The order-life refusal of `receive` → the line's outcome. */
function outcomeOfRefusal(key: string): C.StorageOutcome {
  if (key === 'lifeIntercepted') return 'intercepted';
  if (key === 'lifeCancelled') return 'cancelled';
  if (key.startsWith('lifeAlready_')) return 'alreadyReceived';
  if (key === 'orderNotFound') return 'notFound';
  return 'refused';
}

/** A line that did what it was for: received by the warehouse, or announced by a pre-alert. */
export const isOk = (o: C.StorageOutcome) => o === 'received' || o === 'preAlerted';

/** The warehouse's scan: the planned orders received through the order's life (or why not). */
export async function receive(trx: Transaction<DB>, by: number, note: string, plan: Planned[], at: string) {
  const wanted = plan.filter((p) => p.outcome === 'received').map((p) => p.order!.id);
  const moved = await transition(trx, 'receive', wanted, { at, by, location: orders.WAREHOUSE_LOCATION, note });
  const refusedKey = new Map(moved.refused.map((r) => [r.id, r.key]));
  for (const p of plan) {
    if (p.outcome !== 'received') continue;
    const key = refusedKey.get(p.order!.id);
    if (key) {
      p.outcome = outcomeOfRefusal(key);
      p.key = key;
    } else {
      p.order = { ...p.order!, status: 'received', received_at: at };
    }
  }
}

/** A pre-alert announces the planned orders the warehouse has not received yet; it moves none. */
export function preAlert(plan: Planned[]) {
  for (const p of plan) {
    if (p.outcome !== 'received') continue;
    const o = p.order!;
    if (o.status === 'cancelled') {
      p.outcome = 'cancelled';
      p.key = 'lifeCancelled';
    } else if (o.received_at !== null || !['created', 'printed'].includes(o.status)) {
      p.outcome = 'alreadyReceived';
      p.key = `lifeAlready_${o.status}`;
    } else {
      p.outcome = 'preAlerted';
      p.key = 'storagePreAlerted';
      p.order = { ...o };
    }
  }
}
