import { pageOf } from '../../db/paged.ts';
import type { Paging } from '@console/contract';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { inScope, type Scope } from '../../lib/scope.ts';
import { visibleOrders } from '../../domain/order-writer.ts';

/** What an ID-card row of the list shows (the page and the answer to an upload). */
const LISTED_COLUMNS = [
  'i.id',
  'i.customer_id',
  'i.order_id',
  'o.order_no',
  'i.name',
  'i.id_card',
  'i.front_file_id',
  'i.back_file_id',
  'i.created_at',
] as const;
const withOrder = (q: Kysely<DB> | Transaction<DB>) =>
  q.selectFrom('id_cards as i').leftJoin('orders as o', 'o.id', 'i.order_id');

/** The SQL of promise-letter ID cards: the list, one card's images, and cards written in bulk (the mapping import). */
export function createIdCardsRepository(db: Database) {
  const IN_CHUNK = 500;
  return {
    /** One page of the ID cards in scope, by ID number, order number or name, with the count. */
    async page(scope: Scope, p: Paging & { keyword?: string }) {
      let q = inScope(withOrder(db), 'i.customer_id', scope);
      if (p.keyword)
        q = q.where((eb) =>
          eb.or([
            eb('i.id_card', '=', p.keyword!.toUpperCase()),
            eb('o.order_no', '=', p.keyword!),
            eb('i.name', '=', p.keyword!),
          ]),
        );
      return pageOf(q, (q) => q.select(LISTED_COLUMNS).orderBy('i.id', p.order), p);
    },
    /** One card as the list shows it, read inside the write that made it. */
    listed: (trx: Transaction<DB>, id: number) =>
      withOrder(trx).select(LISTED_COLUMNS).where('i.id', '=', id).executeTakeFirstOrThrow(),
    /** The customer's card of this ID number for this order (or for no order). */
    findFor(trx: Transaction<DB>, customerId: number, idCard: string, orderId: number | null) {
      const q = trx
        .selectFrom('id_cards')
        .select('id')
        .where('customer_id', '=', customerId)
        .where('id_card', '=', idCard);
      return (orderId ? q.where('order_id', '=', orderId) : q.where('order_id', 'is', null)).executeTakeFirst();
    },
    async setImage(
      trx: Transaction<DB>,
      id: number,
      column: 'front_file_id' | 'back_file_id',
      fileId: number,
      at: string,
    ) {
      await trx
        .updateTable('id_cards')
        .set({ [column]: fileId, updated_at: at })
        .where('id', '=', id)
        .execute();
    },
    async insertReturningId(trx: Transaction<DB>, values: Insertable<DB['id_cards']>) {
      const r = await trx.insertInto('id_cards').values(values).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },
    byId: (id: number) => db.selectFrom('id_cards').selectAll().where('id', '=', id).executeTakeFirst(),
    /** Where an ID card's image is stored. */
    image: (fileId: number) =>
      db.selectFrom('files').select(['storage_key', 'mime']).where('id', '=', fileId).executeTakeFirstOrThrow(),
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
