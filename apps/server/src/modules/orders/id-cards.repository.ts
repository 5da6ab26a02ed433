import type { Insertable, Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { inScope, type Scope } from '../../lib/scope.ts';
import { visibleOrders } from '../../domain/order-writer.ts';

/** The SQL of promise-letter ID cards written in bulk (the bulk mapping import). */
export function createIdCardsRepository(db: Database) {
  const IN_CHUNK = 500;
  return {
    /** The customer's orders named by order number or waybill number (scoped as every tenant query). */
    async ordersByNumbers(scope: Scope, customerId: number, orderNos: string[], waybillNos: string[]) {
      const out: {
        id: number;
        order_no: string;
        waybill_no: string | null;
        recipient_name: string;
        recipient_id_card: string;
      }[] = [];
      const lists: ['order_no' | 'waybill_no', string[]][] = [
        ['order_no', orderNos],
        ['waybill_no', waybillNos],
      ];
      for (const [column, values] of lists) {
        for (let i = 0; i < values.length; i += IN_CHUNK) {
          const rows = await inScope(
            db
              .selectFrom('orders')
              .select(['id', 'order_no', 'waybill_no', 'recipient_name', 'recipient_id_card'])
              .where('customer_id', '=', customerId)
              .where(column, 'in', values.slice(i, i + IN_CHUNK))
              .$call(visibleOrders(db, 'orders')),
            'customer_id',
            scope,
          ).execute();
          out.push(...rows);
        }
      }
      return out;
    },
    /** ID-card rows of the customer for these ID numbers (to tell an update from a new mapping). */
    async existing(trx: Transaction<DB>, customerId: number, idCards: string[]) {
      const out: { id: number; order_id: number | null; id_card: string }[] = [];
      for (let i = 0; i < idCards.length; i += IN_CHUNK) {
        out.push(
          ...(await trx
            .selectFrom('id_cards')
            .select(['id', 'order_id', 'id_card'])
            .where('customer_id', '=', customerId)
            .where('id_card', 'in', idCards.slice(i, i + IN_CHUNK))
            .execute()),
        );
      }
      return out;
    },
    async insert(trx: Transaction<DB>, values: Insertable<DB['id_cards']>) {
      await trx.insertInto('id_cards').values(values).execute();
    },
    async update(
      trx: Transaction<DB>,
      id: number,
      set: { name: string; front_file_id?: number; back_file_id?: number; updated_at: string },
    ) {
      await trx.updateTable('id_cards').set(set).where('id', '=', id).execute();
    },
  };
}
export type IdCardsRepository = ReturnType<typeof createIdCardsRepository>;
