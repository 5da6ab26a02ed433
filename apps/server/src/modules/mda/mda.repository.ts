import { visibleOrders } from '../../domain/order-writer.ts';
import type { Database } from '../../db/database.ts';
import { inScope, type Scope } from '../../lib/scope.ts';

/** Orders of one IN list at most (SQLite and PostgreSQL both take far more; this keeps plans small). */
const CHUNK = 1000;

/** Which orders: a batch's, or chosen ones — always inside the caller's scope. */
export type MdaSelection = { batchId: number } | { ids: readonly number[] };

export type MdaOrderRow = Awaited<ReturnType<ReturnType<typeof createMdaRepository>['orders']>>[number];
export type MdaItemRow = Awaited<ReturnType<ReturnType<typeof createMdaRepository>['items']>>[number];

/**
 * The MDA data read straight from the tables (SQL only): each order with its batch, its export
 * nomination (the exporter) and its declaration row (another lane edits that table; MDA only
 * reads it), then its item lines with the catalogue entry of the same customer and JAN.
 */
export function createMdaRepository(db: Database) {
  const ordersQuery = (scope: Scope) =>
    inScope(db.selectFrom('orders as o').$call(visibleOrders(db, 'o')), 'o.customer_id', scope)
      .leftJoin('batches as b', 'b.id', 'o.batch_id')
      .leftJoin('export_nominations as n', 'n.id', 'o.export_nomination_id')
      .leftJoin('export_declarations as d', 'd.order_id', 'o.id')
      .select([
        'o.id',
        'o.customer_id',
        'o.batch_id',
        'b.batch_no',
        'o.order_no',
        'o.waybill_no',
        'o.recipient_name',
        'o.recipient_country',
        'o.recipient_province',
        'o.recipient_city',
        'o.recipient_district',
        'o.recipient_address',
        'o.recipient_postcode',
        'o.recipient_phone',
        'o.created_at',
        'n.name_ja as exporter_name_ja',
        'n.name_en as exporter_name_en',
        'n.address_en as exporter_address',
        'n.corporate_number as exporter_corporate_number',
        'n.tel as exporter_tel',
        'd.product_name as declaration_name',
        'd.amount_jpy as declaration_amount_jpy',
      ]);

  return {
    /** The batch in scope, or undefined (another tenant's batch reads as not found). */
    async batch(scope: Scope, id: number) {
      return inScope(db.selectFrom('batches'), 'customer_id', scope)
        .select(['id', 'batch_no'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async orders(scope: Scope, sel: MdaSelection) {
      if ('batchId' in sel) return ordersQuery(scope).where('o.batch_id', '=', sel.batchId).orderBy('o.id').execute();
      const out = [];
      for (let i = 0; i < sel.ids.length; i += CHUNK)
        out.push(
          ...(await ordersQuery(scope)
            .where('o.id', 'in', sel.ids.slice(i, i + CHUNK))
            .orderBy('o.id')
            .execute()),
        );
      return out;
    },

    /** Item lines of the orders, with the catalogue entry of the same customer and JAN. */
    async items(orderIds: readonly number[]) {
      const out = [];
      for (let i = 0; i < orderIds.length; i += CHUNK) {
        out.push(
          ...(await db
            .selectFrom('order_items as i')
            .innerJoin('orders as o', 'o.id', 'i.order_id')
            .leftJoin('items as c', (j) => j.onRef('c.customer_id', '=', 'o.customer_id').onRef('c.jan', '=', 'i.jan'))
            .leftJoin('item_export_categories as e', 'e.code', 'c.export_category')
            .select([
              'i.order_id',
              'i.line_no',
              'i.jan',
              'i.name',
              'i.quantity',
              'i.unit_price',
              'i.currency',
              'i.origin',
              'c.name_en as catalogue_name_en',
              'c.name_ja as catalogue_name_ja',
              'c.export_category',
              'e.name_en as export_category_en',
              'c.net_weight_g',
              'c.declaration_price',
              'c.origin as catalogue_origin',
            ])
            .where('i.order_id', 'in', orderIds.slice(i, i + CHUNK))
            .orderBy('i.order_id')
            .orderBy('i.line_no')
            .execute()),
        );
      }
      return out;
    },

    /** Each currency's minor-unit digits (JPY 0). */
    async decimals() {
      const rows = await db.selectFrom('currencies').select(['code', 'decimals']).execute();
      return Object.fromEntries(rows.map((r) => [r.code, r.decimals]));
    },
  };
}
