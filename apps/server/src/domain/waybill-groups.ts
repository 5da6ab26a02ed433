import type { OrderInput } from './order-input.ts';

/**
 * The grouping of orders by where their waybill numbers come from, apart from the writer
 * (order-writer.ts) that reserves them: the batch parse worker counts the groups of its orders
 * (parsed-orders.ts), and importing the writer loaded Kysely into every parse worker (255 modules
 * of its 400, issue 29), started again after each parse beside the commit it competes with.
 */

/** What decides where an order's waybill number comes from. */
export type WaybillKey = Pick<OrderInput, 'channel' | 'customerId' | 'numberSegmentId'>;
/** Orders that draw from one (channel, customer, chosen segment), and how many they are. */
export type WaybillGroup = WaybillKey & { count: number };

export const waybillKey = (o: WaybillKey) => `${o.channel}\u0000${o.customerId}\u0000${o.numberSegmentId ?? ''}`;

/** The waybill groups of these orders, in the order they first appear. */
export function waybillGroups(orders: Iterable<WaybillKey>): WaybillGroup[] {
  const groups = new Map<string, WaybillGroup>();
  for (const o of orders) {
    const g = groups.get(waybillKey(o));
    if (g) g.count++;
    else
      groups.set(waybillKey(o), {
        channel: o.channel,
        customerId: o.customerId,
        numberSegmentId: o.numberSegmentId ?? null,
        count: 1,
      });
  }
  return [...groups.values()];
}
