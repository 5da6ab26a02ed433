import { pageOf } from '../../db/paged.ts';
import type { selfSends as C } from '@console/contract';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { SelfSendsTable } from '../../db/schema-meituan.ts';
import { inScope, type Scope } from '../../lib/scope.ts';

type Executor = Database | Transaction<DB>;

/**
 * SQL of self-sends. A self-send's status is derived from its parcels (how many arrived), so
 * matching a storage line is one UPDATE of the parcel and nothing else to keep in step.
 */
export function createSelfSendsRepository(db: Database) {
  const arrived = sql<number>`(select count(*) from self_send_parcels p where p.self_send_id = s.id and p.arrived_at is not null)`;
  const total = sql<number>`(select count(*) from self_send_parcels p where p.self_send_id = s.id)`;

  const filtered = (scope: Scope, f: Omit<C.SelfSendListRequest, 'offset' | 'limit'>, id?: number) => {
    let q = inScope(
      db.selectFrom('self_sends as s').innerJoin('customers as c', 'c.id', 's.customer_id'),
      's.customer_id',
      scope,
    );
    if (id !== undefined) q = q.where('s.id', '=', id);
    if (f.customerId) q = q.where('s.customer_id', '=', f.customerId);
    if (f.expressCompany) q = q.where('s.express_company', '=', f.expressCompany);
    if (f.dateFrom) q = q.where('s.send_date', '>=', f.dateFrom);
    if (f.dateTo) q = q.where('s.send_date', '<=', f.dateTo);
    if (f.trackingNo) {
      const code = f.trackingNo.trim().toUpperCase();
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('self_send_parcels as p')
            .select(sql`1`.as('x'))
            .whereRef('p.self_send_id', '=', 's.id')
            .where('p.tracking_no', '=', code),
        ),
      );
    }
    if (f.status === 'pending') q = q.where(arrived, '=', 0);
    if (f.status === 'arrived') q = q.where(arrived, '=', total);
    if (f.status === 'partial') q = q.where(arrived, '>', 0).where(arrived, '<', total);
    return q;
  };

  return {
    /** A page of the list; with `id`, that self-send alone (a save answers with its row). */
    async page(scope: Scope, f: C.SelfSendListRequest, id?: number) {
      const q = filtered(scope, f, id);
      return pageOf(
        q,
        (q) =>
          q
            .select([
              's.id',
              's.customer_id',
              'c.code as customer_code',
              's.express_company',
              's.express_name',
              's.send_date',
              's.expected_pieces',
              's.remark',
              's.created_at',
            ])
            .orderBy(f.sort === 'sendDate' ? 's.send_date' : 's.created_at', f.order)
            .orderBy('s.id', f.order),
        f,
      );
    },

    parcelsOf: (ids: number[]) =>
      ids.length
        ? db
            .selectFrom('self_send_parcels as p')
            .leftJoin('storage_orders as so', 'so.id', 'p.storage_order_id')
            .select(['p.self_send_id', 'p.tracking_no', 'p.arrived_at', 'so.storage_no'])
            .where('p.self_send_id', 'in', ids)
            .orderBy('p.id')
            .execute()
        : Promise.resolve([]),

    /** The tracking numbers among `codes` the customer declared before. */
    declared: (trx: Executor, customerId: number, codes: string[]) =>
      trx
        .selectFrom('self_send_parcels')
        .select('tracking_no')
        .where('customer_id', '=', customerId)
        .where('tracking_no', 'in', codes)
        .execute(),

    async insert(trx: Transaction<DB>, v: Omit<SelfSendsTable, 'id'>, codes: string[]) {
      const { id } = await trx.insertInto('self_sends').values(v).returning('id').executeTakeFirstOrThrow();
      await trx
        .insertInto('self_send_parcels')
        .values(codes.map((tracking_no) => ({ self_send_id: id, customer_id: v.customer_id, tracking_no })))
        .execute();
      return id;
    },

    /**
     * Marks the parcels among `codes` arrived with storage order `storageOrderId`: those of the
     * storage order's customer, or of any customer when the entry names none (an operator's
     * warehouse entry). A parcel arrives once: the first storage order keeps it.
     */
    async markArrived(
      trx: Transaction<DB>,
      m: { storageOrderId: number; customerId: number | null; codes: string[]; at: string },
    ) {
      if (!m.codes.length) return [] as string[];
      let q = trx
        .updateTable('self_send_parcels')
        .set({ arrived_at: m.at, storage_order_id: m.storageOrderId })
        .where('tracking_no', 'in', m.codes)
        .where('arrived_at', 'is', null);
      if (m.customerId !== null) q = q.where('customer_id', '=', m.customerId);
      const rows = await q.returning('tracking_no').execute();
      return rows.map((r) => r.tracking_no);
    },
  };
}
