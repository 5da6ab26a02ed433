import type { bills as C } from '@console/contract';
import type { Database } from '../db/database.ts';
import { chinaMonthOf, chargeShipment } from '../domain/pricing/index.ts';

/**
 * Demo rate cards and charges (issue 17, embedded default only, after the demo orders): a card
 * per channel in its currency, a cheaper card of demo2's own on the Japan parcel channel (it
 * overrides the channel's), a gross weight on every demo order, and the charges of the orders the
 * seed shipped, written by the same code the ship move runs. Months before the current one are
 * issued, and the ones before that paid, so the page shows every status.
 */
const CARD: C.RateRules = {
  firstWeightG: 500,
  firstPrice: 1200,
  brackets: [
    { upToG: 2000, stepG: 500, price: 300 },
    { upToG: null, stepG: 1000, price: 500 },
  ],
  minimum: 1200,
  remoteProvinces: ['新疆维吾尔自治区', '西藏自治区', '青海省'],
  remoteFee: 800,
  interceptionFee: 500,
  relabelFee: 300,
  storageFreeDays: 7,
  storagePerDay: 50,
};
/** The demo gross weight of an order, 300 g to 3 kg (the storage seed's scan lines carry it too). */
export const demoWeightG = (orderId: number) => 300 + ((orderId * 137) % 2700);

export async function seedDemoBills(db: Database, now: Date) {
  const iso = now.toISOString();
  const channels = await db.selectFrom('channels').select(['code', 'currency']).execute();
  const demo2 = await db
    .selectFrom('users')
    .select('customer_id')
    .where('name', '=', 'demo2')
    .executeTakeFirstOrThrow();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('rate_cards')
      .values(
        channels.map((ch) => ({
          channel_code: ch.code,
          customer_id: null,
          effective_from: '2020-01-01',
          currency: ch.currency,
          // Minor units: JPY 1,200 on yen channels, 12.00 on two-decimal ones.
          rules: JSON.stringify(CARD),
          created_by: null,
          created_at: iso,
        })),
      )
      .execute();
    await trx
      .insertInto('rate_cards')
      .values({
        channel_code: 'JP',
        customer_id: demo2.customer_id,
        effective_from: '2020-01-01',
        currency: 'JPY',
        rules: JSON.stringify({ ...CARD, firstPrice: 1000, minimum: 1000 }),
        created_by: null,
        created_at: iso,
      })
      .execute();
    const orders = await trx
      .selectFrom('orders')
      .select(['id', 'status', 'created_at'])
      .where('status', 'in', ['shipped', 'released'])
      .orderBy('id')
      .execute();
    // A gross weight on every order (what the storage scan records), 300 g to 3 kg.
    const all = await trx.selectFrom('orders').select('id').execute();
    for (const o of all) {
      await trx
        .updateTable('orders')
        .set({ gross_weight_g: demoWeightG(o.id) })
        .where('id', '=', o.id)
        .execute();
    }
    for (const o of orders) {
      // Shipped 18 hours after creation, as the seed's tracking events say.
      const at = new Date(new Date(o.created_at).getTime() + 18 * 3_600_000);
      await chargeShipment(trx, [o.id], (at > now ? now : at).toISOString(), null);
    }
    const current = chinaMonthOf(iso);
    const bills = await trx
      .selectFrom('bills')
      .select(['id', 'customer_id', 'period'])
      .where('period', '<', current)
      .execute();
    for (const b of bills) {
      const older = bills.some((x) => x.customer_id === b.customer_id && x.period > b.period);
      await trx
        .updateTable('bills')
        .set(
          older
            ? { status: 'paid', issued_at: iso, paid_at: iso, updated_at: iso }
            : { status: 'issued', issued_at: iso, updated_at: iso },
        )
        .where('id', '=', b.id)
        .execute();
    }
  });
}
