import type { OrderInput } from '../../domain/order-input.ts';
import {
  type CatalogueEntry,
  catalogueIssues,
  catalogueMarks,
  type ChannelTax,
  cnyWhole,
  estimateTax,
  fenText,
} from '../../domain/pricing/tax-estimate.ts';
import type { Group } from './parse.orders.ts';
import type { NotesSummary, OrderNote, ParseJob } from './parse.protocol.ts';
import type { ColumnKey } from '../../domain/order-templates/template-columns.ts';
import { TEMPLATES } from '../../domain/order-templates/templates.ts';
import { mayReceive } from '../../domain/recipient-eligibility.ts';

/**
 * What the parse worker tells of the orders to be made (issue 12): their items against the
 * customer's catalogue, their tax estimates and the recipients' yearly limit.
 */

/** The JANs to look up in the catalogue and the recipients whose yearly totals count. */
export function lookupKeys(built: (OrderInput | null)[], channelTax: Map<string, ChannelTax>) {
  const jans = new Set<string>();
  const idCards = new Set<string>();
  for (const o of built) {
    if (!o) continue;
    for (const it of o.items) if (it.jan) jans.add(it.jan);
    if (channelTax.get(o.channel)?.regime?.yearlyLimit) idCards.add(o.recipient.idCard);
  }
  return { jans: [...jans], idCards: [...idCards] };
}

/**
 * Marks each order's items against the customer's catalogue: a refused item is an error on its
 * row (the order is not made), an unregistered one a note.
 */
export function markCatalogue(
  job: ParseJob,
  made: { kept: Group[]; built: (OrderInput | null)[]; orders: (OrderInput | null)[] },
  entries: Map<string, CatalogueEntry>,
  channelTax: Map<string, ChannelTax>,
  issue: (row: number, col: ColumnKey | null, key: string, params?: Record<string, string | number>) => void,
) {
  const def = TEMPLATES[job.kind];
  const { kept, built, orders } = made;
  const unregistered: OrderNote['items'][] = [];
  kept.forEach((g, i) => {
    const o = built[i];
    unregistered.push([]);
    if (!o) return;
    const marks = catalogueMarks(o, entries);
    for (const c of catalogueIssues(o, marks, channelTax.get(o.channel))) {
      const row = g.rows[c.item]!.row;
      if (c.refused) {
        issue(row, def.columns.includes('jan') ? 'jan' : null, c.messageKey, c.params);
        orders[i] = null;
      } else if (c.mark !== 'noJan') unregistered[i]!.push({ row, jan: c.params['jan']!, status: c.mark });
    }
  });
  return unregistered;
}

/**
 * The tax estimate of each order to be made (stored with it) and the yearly limit, the sheet's
 * own earlier orders to the same recipient counted.
 */
export function taxNotes(
  kept: Group[],
  orders: (OrderInput | null)[],
  unregistered: OrderNote['items'][],
  lookup: { entries: Map<string, CatalogueEntry>; yearly: Map<string, number> },
  channelTax: Map<string, ChannelTax>,
  currencies: Map<string, number>,
) {
  const { entries, yearly } = lookup;
  const orderNotes: OrderNote[] = [];
  const flaggedNotes: OrderNote[] = [];
  // toLocaleString is slow (40 ms over 100,000 orders to one recipient): once per limit.
  const limitTexts = new Map<string, string>();
  const limitText = (cny: string) => limitTexts.get(cny) ?? limitTexts.set(cny, cnyWhole(cny)).get(cny)!;
  const notesSummary: NotesSummary = { unregisteredItems: 0, yearlyLimitOrders: 0, taxTotalFen: 0, taxedOrders: 0 };
  kept.forEach((g, i) => {
    const o = orders[i];
    if (!o) return;
    const regime = channelTax.get(o.channel)?.regime ?? null;
    const tax = estimateTax(o, regime, entries, currencies);
    const reasons: OrderNote['reasons'] = [];
    let passes = false;
    if (tax) {
      o.taxEstimate = fenText(tax.totalFen);
      notesSummary.taxedOrders++;
      notesSummary.taxTotalFen += tax.totalFen;
      if (regime?.yearlyLimit) {
        const earlier = yearly.get(o.recipient.idCard) ?? 0;
        passes = mayReceive({
          yearly: { limit: regime.yearlyLimit, earlierFen: earlier, orderFen: tax.valueFen },
        }).overYearlyLimit;
        yearly.set(o.recipient.idCard, earlier + tax.valueFen);
        if (passes) {
          notesSummary.yearlyLimitOrders++;
          reasons.push({ key: 'yearlyLimitExceeded', params: { limit: limitText(regime.yearlyLimit) } });
        }
      }
    }
    const items = unregistered[i]!;
    notesSummary.unregisteredItems += items.length;
    reasons.unshift(...items.map((it) => ({ key: `itemNotRegistered_${it.status}`, params: { jan: it.jan } })));
    // Orders with warnings first: the first 200 of a large sheet should not hide them.
    const list = reasons.length ? flaggedNotes : orderNotes;
    if (list.length < 200)
      list.push({ row: g.rows[0]!.row, orderNo: g.orderNo, items, tax, yearlyLimit: passes, reasons });
  });
  const notes = [...flaggedNotes, ...orderNotes].slice(0, 200).sort((a, b) => a.row - b.row);
  return { notes, notesSummary };
}
