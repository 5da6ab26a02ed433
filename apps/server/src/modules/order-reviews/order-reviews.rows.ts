import type { Database } from '../../db/database.ts';
import { type OrderInput, orderValueCny } from '../../domain/order-input.ts';
import { loadChannelTax, yearlyTotals } from '../../domain/pricing/index.ts';
import { loadValidationContext } from '../../domain/order-checks.ts';
import { fromMinor } from '../orders/index.ts';
import { createCatalogueLookup } from '../items/index.ts';
import { type CheckContext, reviewOrder } from './order-reviews.checks.ts';
import {
  createOrderReviewsRepository,
  type ReviewItemInsert,
  type ReviewOrderInsert,
} from './order-reviews.repository.ts';

/**
 * Every order through the review checks, in groups (one catalogue read per group): the rows
 * of the review's orders and items with their findings. The seed's demo reviews are made
 * by it too, so their findings are the checks' own.
 */
export async function buildReviewRows(db: Database, customerId: number, groups: Iterable<OrderInput[]>, at: Date) {
  const repo = createOrderReviewsRepository(db);
  const validation = await loadValidationContext(db, at);
  const orders: ReviewOrderInsert[] = [];
  const items: ReviewItemInsert[] = [];
  let flagged = 0;
  const channelTax = await loadChannelTax(db);
  const taxCatalogue = createCatalogueLookup(db);
  const yearly = new Map<string, number>();
  for (const batch of groups) {
    const jans = batch.flatMap((o) => o.items.map((it) => it.jan).filter((j): j is string => !!j));
    const newIds = [...new Set(batch.map((o) => o.recipient.idCard.toUpperCase()))].filter((id) => !yearly.has(id));
    const [catalogue, entries, totals] = await Promise.all([
      repo.catalogue(customerId, jans),
      taxCatalogue.entries(customerId, jans),
      yearlyTotals(db, newIds, at, channelTax, validation.currencies),
    ]);
    for (const id of newIds) yearly.set(id, totals.get(id) ?? 0);
    const ctx: CheckContext = { db, now: at, validation, catalogue, tax: { channelTax, entries, yearly } };
    for (const order of batch) {
      const seq = orders.length + 1;
      const { orderFindings, itemFindings } = await reviewOrder(order, ctx);
      const count = orderFindings.length + itemFindings.reduce((n, f) => n + f.length, 0);
      if (count) flagged++;
      orders.push({
        seq,
        order_no: order.orderNo,
        channel: order.channel,
        recipient_name: order.recipient.name,
        province: order.recipient.province,
        city: order.recipient.city,
        item_count: order.items.length,
        value_cny: orderValue(order, validation.currencies),
        findings: JSON.stringify(orderFindings),
        finding_count: count,
      });
      order.items.forEach((it, i) => {
        const entry = it.jan ? catalogue.get(it.jan) : undefined;
        items.push({
          order_seq: seq,
          seq: i + 1,
          jan: it.jan,
          name: it.name,
          quantity: it.quantity,
          unit_price: it.unitPrice,
          currency: it.currency,
          catalogue: entry?.status ?? 'unknown',
          catalogue_item_id: entry?.id ?? null,
          clearance_price: entry?.clearancePrice ?? null,
          findings: JSON.stringify(itemFindings[i]),
        });
      });
    }
  }
  return { orders, items, flagged };
}

/** The order's value in CNY by the reference rates (as the limit rule counts it), or null. */
function orderValue(order: OrderInput, currencies: ReadonlyMap<string, number>): string | null {
  const fen = orderValueCny(order, currencies);
  return fen === null ? null : fromMinor(fen, 2);
}
