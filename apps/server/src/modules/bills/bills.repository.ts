import { pageOf } from '../../db/paged.ts';
import type { bills as C } from '@console/contract';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { inScope, type Scope } from '../../lib/scope.ts';

type BillFilters = Omit<C.BillListRequest, 'offset' | 'limit' | 'order'>;

/** SQL of bills, charges, rate cards and rates. Every read of a customer's rows goes through the scope. */
/** A rate card as the list and the card page show it. */
const RATE_CARD_COLUMNS = [
  'r.id',
  'r.channel_code',
  'r.customer_id',
  'c.code as customer_code',
  'r.effective_from',
  'r.currency',
  'r.rules',
  'r.created_at',
] as const;

export function createBillsRepository(db: Database) {
  const billColumns = [
    'b.id',
    'b.customer_id',
    'c.code as customer_code',
    'b.period',
    'b.status',
    'b.issued_at',
    'b.paid_at',
  ] as const;
  const filtered = (scope: Scope, f: BillFilters) => {
    let q = inScope(
      db.selectFrom('bills as b').innerJoin('customers as c', 'c.id', 'b.customer_id'),
      'b.customer_id',
      scope,
    );
    if (f.period) q = q.where('b.period', '=', f.period);
    if (f.customerId) q = q.where('b.customer_id', '=', f.customerId);
    if (f.status) q = q.where('b.status', '=', f.status);
    return q;
  };

  return {
    /**
     * Storage accrual's walk: a chunk of the orders received and not shipped (intercepted ones
     * included) before `monthStart`, after id `after`, in id order.
     */
    async heldOrderIds(monthStart: string, after: number, limit: number): Promise<number[]> {
      const rows = await db
        .selectFrom('orders')
        .select('id')
        .where('status', '=', 'received')
        .where('received_at', '<', monthStart)
        .where('id', '>', after)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((o) => o.id);
    },
    async page(scope: Scope, f: C.BillListRequest) {
      const q = filtered(scope, f);
      return pageOf(q, (q) => q.select(billColumns).orderBy('b.period', f.order).orderBy('b.id', f.order), f, db);
    },

    find: (scope: Scope, id: number) =>
      filtered(scope, {}).where('b.id', '=', id).select(billColumns).executeTakeFirst(),

    /** Sums per bill and currency, and line counts (the statement's totals are these sums). */
    async sums(billIds: readonly number[]) {
      if (!billIds.length) return [];
      return db
        .selectFrom('charges')
        .select([
          'bill_id',
          'currency',
          sql<string>`cast(sum(amount_minor) as text)`.as('total'),
          (eb) => eb.fn.countAll<number>().as('n'),
        ])
        .where('bill_id', 'in', billIds)
        .groupBy(['bill_id', 'currency'])
        .execute();
    },

    /** Bills of the last months in scope (the chart), with their ids for the sums. */
    monthBills: (scope: Scope, fromPeriod: string, customerId?: number) => {
      let q = inScope(db.selectFrom('bills as b'), 'b.customer_id', scope).where('b.period', '>=', fromPeriod);
      if (customerId) q = q.where('b.customer_id', '=', customerId);
      return q.select(['b.id', 'b.period']).execute();
    },

    async lines(billId: number, p: { offset: number; limit: number; order: 'asc' | 'desc' }) {
      const q = db.selectFrom('charges as ch').where('ch.bill_id', '=', billId);
      return pageOf(
        q,
        (q) =>
          q
            .leftJoin('orders as o', 'o.id', 'ch.order_id')
            .select([
              'ch.id',
              'ch.kind',
              'ch.order_id',
              'o.order_no',
              sql<string>`cast(ch.amount_minor as text)`.as('amount_minor'),
              'ch.currency',
              'ch.weight_g',
              'ch.reason',
              'ch.corrects_id',
              'ch.at',
            ])
            .orderBy('ch.id', p.order === 'desc' ? 'desc' : 'asc'),
        p,
      );
    },

    charge: (id: number) =>
      db.selectFrom('charges').select(['id', 'customer_id']).where('id', '=', id).executeTakeFirst(),
    orderCustomer: (id: number) =>
      db.selectFrom('orders').select(['id', 'customer_id']).where('id', '=', id).executeTakeFirst(),

    /** Moves a bill from one status to the next; false when it is not in `from` (decided in the statement). */
    async setStatus(id: number, from: C.BillStatus, to: C.BillStatus, at: string) {
      const r = await db
        .updateTable('bills')
        .set({ status: to, updated_at: at, ...(to === 'issued' ? { issued_at: at } : { paid_at: at }) })
        .where('id', '=', id)
        .where('status', '=', from)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    currencies: () => db.selectFrom('currencies').select(['code', 'decimals']).execute(),
    rates: () => db.selectFrom('currency_rates').select(['currency', 'month', 'rate_cny']).execute(),
    channel: (code: string) =>
      db.selectFrom('channels').select(['code', 'currency']).where('code', '=', code).executeTakeFirst(),
    customer: (id: number) => db.selectFrom('customers').select(['id']).where('id', '=', id).executeTakeFirst(),

    async cards(f: {
      channelCode?: string;
      customerId?: number;
      offset: number;
      limit: number;
      order: 'asc' | 'desc';
    }) {
      let q = db.selectFrom('rate_cards as r').leftJoin('customers as c', 'c.id', 'r.customer_id');
      if (f.channelCode) q = q.where('r.channel_code', '=', f.channelCode);
      if (f.customerId) q = q.where('r.customer_id', '=', f.customerId);
      return pageOf(
        q,
        (q) => q.select(RATE_CARD_COLUMNS).orderBy('r.effective_from', f.order).orderBy('r.id', f.order),
        f,
      );
    },

    card: (id: number) =>
      db
        .selectFrom('rate_cards as r')
        .leftJoin('customers as c', 'c.id', 'r.customer_id')
        .select(RATE_CARD_COLUMNS)
        .where('r.id', '=', id)
        .executeTakeFirstOrThrow(),

    insertCard: (v: {
      channel_code: string;
      customer_id: number | null;
      effective_from: string;
      currency: string;
      rules: string;
      created_by: number;
      created_at: string;
    }) => db.insertInto('rate_cards').values(v).returning('id').executeTakeFirstOrThrow(),

    /** The statement's workbook query: every line in order, then one total row per currency. */
    forDownload: (billId: number) =>
      sql<Record<string, unknown>>`
        select 0 as part, ch.id as id, ch.at as at, ch.kind as kind, o.order_no as order_no, ch.weight_g as weight_g,
               cast(ch.amount_minor as text) as amount_minor, ch.currency as currency, ch.reason as reason
          from charges ch left join orders o on o.id = ch.order_id
         where ch.bill_id = ${billId}
        union all
        select 1 as part, null as id, null as at, null as kind, null as order_no, null as weight_g,
               cast(sum(amount_minor) as text) as amount_minor, currency, null as reason
          from charges where bill_id = ${billId} group by currency
        union all
        select 2 as part, null, null, null, null, null, null, null, null
        order by 1, 2, 8`.compile(db),
  };
}
export type BillsRepository = ReturnType<typeof createBillsRepository>;
export type BillRecord = NonNullable<Awaited<ReturnType<BillsRepository['find']>>>;
