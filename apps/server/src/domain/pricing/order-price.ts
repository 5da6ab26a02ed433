import type { ApiLanguage, orders } from '@console/contract';
import type { Database } from '../../db/database.ts';
import type { OrderInput } from '../order-input.ts';
import {
  type CatalogueEntry,
  type CatalogueMark,
  catalogueIssues,
  catalogueMarks,
  type ChannelTax,
  chinaYear,
  cnyWhole,
  estimateTax,
  fenText,
  itemValueFen,
  type RegimeCode,
  type TaxEstimate,
  type TaxItem,
} from './tax-estimate.ts';
import { AppError } from '../../lib/errors.ts';
import { translate } from '../../lib/messages.ts';
import { nextTurn } from '../../db/next-turn.ts';
import { createOrderChecksRepository } from '../order-checks.repository.ts';
import { mayReceive } from '../recipient-eligibility.ts';

/** The customer's catalogue entries of many JANs at once (modules/items/items.catalogue.ts). */
export type CatalogueEntries = (customerId: number, jans: Iterable<string>) => Promise<Map<string, CatalogueEntry>>;

/** Each channel's regime and setting (small tables, read per call so edits apply at once). */
export async function loadChannelTax(db: Database): Promise<Map<string, ChannelTax>> {
  const [regimes, settings] = await createOrderChecksRepository(db).taxTables();
  const byCode = new Map(
    regimes.map((r) => [
      r.code,
      {
        code: r.code as RegimeCode,
        dutyRate: r.duty_rate,
        vatRate: r.vat_rate,
        levyShare: r.levy_share,
        orderLimit: r.order_limit,
        yearlyLimit: r.yearly_limit,
        waiver: r.waiver,
      },
    ]),
  );
  return new Map(
    settings.map((s) => [
      s.channel_code,
      {
        regime: (s.regime_code && byCode.get(s.regime_code)) || null,
        requiresRegisteredItems: Number(s.requires_registered_items) === 1,
      },
    ]),
  );
}

const ID_CARDS_PER_QUERY = 500;

/**
 * Each recipient's cross-border total this calendar year (China time), in fen, summed by ID
 * number over every customer's orders on the channels whose regime has a yearly limit. The sum
 * never leaves the server: callers answer only whether an order would pass the limit.
 */
export async function yearlyTotals(
  db: Database,
  idCards: Iterable<string>,
  now: Date,
  channelTax: ReadonlyMap<string, ChannelTax>,
  currencies: ReadonlyMap<string, number>,
  excludeOrderId?: number,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const channels = [...channelTax].filter(([, c]) => c.regime?.yearlyLimit).map(([code]) => code);
  const ids = [...new Set([...idCards].map((s) => s.toUpperCase()))];
  if (!channels.length || !ids.length) return out;
  const { from, to } = chinaYear(now);
  const repo = createOrderChecksRepository(db);
  for (let i = 0; i < ids.length; i += ID_CARDS_PER_QUERY) {
    // One query per turn of the event loop, as the catalogue's (items.catalogue.ts).
    if (i > 0) await nextTurn();
    const sums = await repo.yearlySums(ids.slice(i, i + ID_CARDS_PER_QUERY), from, to, channels, excludeOrderId);
    for (const r of sums) {
      const fen = itemValueFen({ unitPrice: Number(r.total), quantity: 1, currency: r.currency }, currencies) ?? 0;
      out.set(r.recipient_id_card, (out.get(r.recipient_id_card) ?? 0) + fen);
    }
  }
  return out;
}

/**
 * What one order (single create, update) is told about its items and tax (issue 12): each
 * item's catalogue status, a refusal (422, per item field) on a channel that takes registered
 * items only, warnings otherwise, the tax estimate, and whether the order would take its
 * recipient past the yearly limit.
 */
export function createOrderPricing(db: Database, catalogue: CatalogueEntries | undefined) {
  async function entriesOf(customerId: number, items: readonly { jan: string | null }[]) {
    const jans = items.map((i) => i.jan).filter((j): j is string => !!j);
    return catalogue && jans.length ? catalogue(customerId, jans) : new Map<string, CatalogueEntry>();
  }
  return {
    /** Price this order: its items' catalogue marks, refusals or warnings, and its tax estimate. */
    async price(
      input: OrderInput,
      currencies: ReadonlyMap<string, number>,
      now: Date,
      lang: ApiLanguage,
      opts: { excludeOrderId?: number; yearly: boolean; refuse: boolean },
    ) {
      const channelTax = await loadChannelTax(db);
      const channel = channelTax.get(input.channel);
      const entries = await entriesOf(input.customerId, input.items);
      const marks = catalogueMarks(input, entries);
      const issues = catalogueIssues(input, marks, channel);
      const refused = opts.refuse ? issues.filter((i) => i.refused) : [];
      if (refused.length) {
        const fields: Record<string, string[]> = {};
        for (const i of refused) (fields[`items.${i.item}.jan`] ??= []).push(translate(lang, i.messageKey, i.params));
        throw AppError.validation(fields);
      }
      // Left as it was (items not changed): an unregistered item warns, as on any other channel.
      const warnings: orders.OrderWarning[] = issues.map((i) => ({
        kind: 'catalogue',
        field: `items.${i.item}.jan`,
        message: translate(lang, i.messageKey, i.params),
      }));
      const estimate = estimateTax(input, channel?.regime ?? null, entries, currencies);
      const regime = channel?.regime ?? null;
      if (opts.yearly && estimate && regime?.yearlyLimit) {
        const id = input.recipient.idCard.toUpperCase();
        const totals = await yearlyTotals(db, [id], now, channelTax, currencies, opts.excludeOrderId);
        const earlierFen = totals.get(id) ?? 0;
        if (
          mayReceive({ yearly: { limit: regime.yearlyLimit, earlierFen, orderFen: estimate.valueFen } }).overYearlyLimit
        )
          warnings.push({
            kind: 'yearlyLimit',
            field: 'recipient.idCard',
            message: translate(lang, 'yearlyLimitExceeded', { limit: cnyWhole(regime.yearlyLimit) }),
          });
      }
      return { marks, warnings, estimate, taxEstimate: estimate ? fenText(estimate.totalFen) : null };
    },

    /** An order's items' statuses and tax estimate as the catalogue stands now (order detail). */
    async current(
      o: { customer_id: number; channel_code: string },
      items: readonly TaxItem[],
      currencies: ReadonlyMap<string, number>,
    ): Promise<{ marks: (CatalogueMark | null)[]; estimate: TaxEstimate | null }> {
      const [channelTax, entries] = await Promise.all([loadChannelTax(db), entriesOf(o.customer_id, items)]);
      const order = { items };
      return {
        marks: catalogueMarks(order, entries),
        estimate: estimateTax(order, channelTax.get(o.channel_code)?.regime ?? null, entries, currencies),
      };
    },
  };
}
