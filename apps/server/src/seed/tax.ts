import type { Database } from '../db/database.ts';
import { estimateTax, fenText } from '../domain/pricing/tax-estimate.ts';
import { createCatalogueLookup } from '../modules/items/items.catalogue.ts';
import { loadChannelTax } from '../domain/pricing/index.ts';

/**
 * The demo orders of `demo` and `demo2` get the tax estimate a new order is stored with
 * (issue 12), from each customer's seeded catalogue, so the Order List export shows the column
 * filled from the first start. The channels' regimes and settings are seeded by their migration.
 */
export async function seedDemoTaxEstimates(db: Database): Promise<void> {
  const [channelTax, cur, rows] = await Promise.all([
    loadChannelTax(db),
    db.selectFrom('currencies').select(['code', 'decimals']).execute(),
    db
      .selectFrom('order_items as i')
      .innerJoin('orders as o', 'o.id', 'i.order_id')
      .select(['o.id', 'o.customer_id', 'o.channel_code', 'i.jan', 'i.quantity', 'i.unit_price', 'i.currency'])
      .orderBy('o.id')
      .execute(),
  ]);
  const currencies = new Map(cur.map((c) => [c.code, Number(c.decimals)]));
  const lookup = createCatalogueLookup(db);
  const byOrder = new Map<number, { customer: number; channel: string; items: typeof rows }>();
  for (const r of rows) {
    const o =
      byOrder.get(r.id) ??
      byOrder.set(r.id, { customer: r.customer_id, channel: r.channel_code, items: [] }).get(r.id)!;
    o.items.push(r);
  }
  const entriesOf = new Map<number, Awaited<ReturnType<typeof lookup.entries>>>();
  for (const customer of new Set([...byOrder.values()].map((o) => o.customer)))
    entriesOf.set(
      customer,
      await lookup.entries(
        customer,
        rows.filter((r) => r.customer_id === customer && r.jan).map((r) => r.jan!),
      ),
    );
  await db.transaction().execute(async (trx) => {
    for (const [id, o] of byOrder) {
      const items = o.items.map((i) => ({
        jan: i.jan,
        quantity: i.quantity,
        unitPrice: Number(i.unit_price),
        currency: i.currency,
      }));
      const e = estimateTax(
        { items },
        channelTax.get(o.channel)?.regime ?? null,
        entriesOf.get(o.customer)!,
        currencies,
      );
      if (e)
        await trx
          .updateTable('orders')
          .set({ tax_estimate: fenText(e.totalFen) })
          .where('id', '=', id)
          .execute();
    }
  });
}
