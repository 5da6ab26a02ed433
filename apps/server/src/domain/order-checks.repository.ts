import type { Database } from '../db/database.ts';
import { visibleOrders } from './order-writer.ts';

/**
 * The SQL of the checks every order goes through (order-checks.ts, pricing/order-price.ts): the reference
 * tables, the abnormal rules' switches, and the counts and sums per recipient ID number. `db`
 * may be the caller's transaction.
 */
export function createOrderChecksRepository(db: Database) {
  return {
    /** Currencies, order types, clearance companies and channels (small tables). */
    referenceTables: () =>
      Promise.all([
        db.selectFrom('currencies').select(['code', 'decimals']).execute(),
        db.selectFrom('order_types').select('code').execute(),
        db.selectFrom('clearance_companies').select('code').execute(),
        db.selectFrom('channels').select(['code', 'currency', 'has_boxes']).execute(),
      ]),
    abnormalRuleSwitches: () => db.selectFrom('abnormal_rules').select(['code', 'enabled']).execute(),
    async saveAbnormalRule(code: string, enabled: boolean, by: number, at: string) {
      const on = enabled ? 1 : 0;
      await db
        .insertInto('abnormal_rules')
        .values({ code, enabled: on, updated_by: by, updated_at: at })
        .onConflict((oc) => oc.column('code').doUpdateSet({ enabled: on, updated_by: by, updated_at: at }))
        .execute();
    },
    /** Orders per ID number (upper-cased already) created since `since`, for up to 1,000 numbers. */
    recentByIdCards: (ids: string[], since: string) =>
      db
        .selectFrom('orders')
        .select(['recipient_id_card', (eb) => eb.fn.countAll<number>().as('n')])
        .where('recipient_id_card', 'in', ids)
        .where('created_at', '>=', since)
        .$call(visibleOrders(db, 'orders'))
        .groupBy('recipient_id_card')
        .execute(),
    /** Orders of one ID number created since `since`, but the one being changed. */
    async recentByIdCard(idCard: string, since: string, excludeOrderId?: number) {
      let q = db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('recipient_id_card', '=', idCard)
        .where('created_at', '>=', since)
        // Orders of a batch still being committed are not there yet (domain/order-writer.ts).
        .$call(visibleOrders(db, 'orders'));
      if (excludeOrderId) q = q.where('id', '!=', excludeOrderId);
      return Number((await q.executeTakeFirstOrThrow()).n);
    },
    /** Tax regimes and each channel's setting (small tables). */
    taxTables: () =>
      Promise.all([
        db.selectFrom('tax_regimes').selectAll().execute(),
        db.selectFrom('channel_tax_settings').selectAll().execute(),
      ]),
    /** Totals per ID number and currency in [from, to) on these channels, cancelled orders left out. */
    yearlySums(ids: string[], from: string, to: string, channels: string[], excludeOrderId?: number) {
      let q = db
        .selectFrom('orders')
        .select(['recipient_id_card', 'currency', (eb) => eb.fn.sum<string | number>('total_amount').as('total')])
        .where('recipient_id_card', 'in', ids)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .where('channel_code', 'in', channels)
        .where('status', '!=', 'cancelled')
        .$call(visibleOrders(db, 'orders'))
        .groupBy(['recipient_id_card', 'currency']);
      if (excludeOrderId) q = q.where('id', '!=', excludeOrderId);
      return q.execute();
    },
  };
}
