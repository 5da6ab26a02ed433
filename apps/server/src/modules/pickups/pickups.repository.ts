import { pageOf } from '../../db/paged.ts';
import type { pickups as C } from '@console/contract';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { PickupsTable } from '../../db/schema-pickups.ts';
import { inScope, type Scope } from '../../lib/scope.ts';

type Q = Database | Transaction<DB>;
const SORT = { createdAt: 'p.created_at', pickupDate: 'p.pickup_date' } as const;

export type PickupValues = Pick<
  PickupsTable,
  'region' | 'pickup_date' | 'slot' | 'box_no' | 'shop_abbr' | 'big_cartons' | 'small_parcels' | 'marker_prefix'
>;

/** SQL of pickup appointments. Reads of tenant rows go through the caller's scope. */
export function createPickupsRepository(db: Database) {
  const base = (q: Q) =>
    q
      .selectFrom('pickups as p')
      .innerJoin('customers as c', 'c.id', 'p.customer_id')
      .leftJoin('storage_orders as s', 's.id', 'p.storage_order_id');
  const columns = [
    'p.id',
    'p.pickup_no',
    'p.customer_id',
    'c.code as customer_code',
    'p.region',
    'p.pickup_date',
    'p.slot',
    'p.box_no',
    'p.shop_abbr',
    'p.big_cartons',
    'p.small_parcels',
    'p.marker_prefix',
    'p.status',
    'p.cancel_reason',
    'p.storage_order_id',
    's.storage_no',
    'p.created_at',
    'p.updated_at',
  ] as const;

  return {
    capacities: () => db.selectFrom('pickup_slot_capacities').selectAll().orderBy('region').orderBy('slot').execute(),

    setCapacity: (region: string, slot: string, capacity: number) =>
      db
        .updateTable('pickup_slot_capacities')
        .set({ capacity })
        .where('region', '=', region)
        .where('slot', '=', slot)
        .execute(),

    bookedOn: (region: string, dates: string[]) =>
      dates.length
        ? db
            .selectFrom('pickup_slot_bookings')
            .select(['pickup_date', 'slot', 'booked'])
            .where('region', '=', region)
            .where('pickup_date', 'in', dates)
            .execute()
        : Promise.resolve([]),

    /**
     * Takes one place of a slot, or none when it is full: the check and the increment are one
     * UPDATE (booked < capacity), so of two bookings racing for the last place the second finds
     * the row already at capacity (PostgreSQL re-checks the condition after the first commits;
     * SQLite runs one writer at a time). The counter row is created first if missing, which a
     * racing insert cannot duplicate (its primary key).
     */
    async takePlace(trx: Transaction<DB>, region: string, date: string, slot: string): Promise<boolean> {
      await trx
        .insertInto('pickup_slot_bookings')
        .values({ region, pickup_date: date, slot, booked: 0 })
        .onConflict((oc) => oc.columns(['region', 'pickup_date', 'slot']).doNothing())
        .execute();
      const r = await trx
        .updateTable('pickup_slot_bookings as b')
        .set({ booked: sql`booked + 1` })
        .where('b.region', '=', region)
        .where('b.pickup_date', '=', date)
        .where('b.slot', '=', slot)
        .where(({ eb, selectFrom }) =>
          eb(
            'b.booked',
            '<',
            selectFrom('pickup_slot_capacities as k')
              .select('k.capacity')
              .where('k.region', '=', region)
              .where('k.slot', '=', slot),
          ),
        )
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    releasePlace: (trx: Transaction<DB>, region: string, date: string, slot: string) =>
      trx
        .updateTable('pickup_slot_bookings')
        .set({ booked: sql`booked - 1` })
        .where('region', '=', region)
        .where('pickup_date', '=', date)
        .where('slot', '=', slot)
        .where('booked', '>', 0)
        .execute(),

    insert: (trx: Transaction<DB>, v: Omit<PickupsTable, 'id'>) =>
      trx.insertInto('pickups').values(v).returning('id').executeTakeFirstOrThrow(),

    find: (q: Q, scope: Scope, id: number) =>
      inScope(base(q), 'p.customer_id', scope).where('p.id', '=', id).select(columns).executeTakeFirst(),

    async page(scope: Scope, f: C.PickupListRequest) {
      let q = inScope(base(db), 'p.customer_id', scope);
      if (f.customerId) q = q.where('p.customer_id', '=', f.customerId);
      if (f.pickupNo) q = q.where('p.pickup_no', '=', f.pickupNo.trim().toUpperCase());
      if (f.boxNo) q = q.where('p.box_no', '=', f.boxNo.trim().toUpperCase());
      if (f.region) q = q.where('p.region', '=', f.region);
      if (f.status) q = q.where('p.status', '=', f.status);
      if (f.dateFrom) q = q.where('p.pickup_date', '>=', f.dateFrom);
      if (f.dateTo) q = q.where('p.pickup_date', '<=', f.dateTo);
      return pageOf(q, (q) => q.select(columns).orderBy(SORT[f.sort], f.order).orderBy('p.id', f.order), f, db);
    },

    /** Changes a booked pickup (only while booked: a cancel or pickup in between wins). */
    async updateBooked(trx: Transaction<DB>, id: number, v: Partial<Omit<PickupsTable, 'id'>>): Promise<boolean> {
      const r = await trx
        .updateTable('pickups')
        .set(v)
        .where('id', '=', id)
        .where('status', '=', 'booked')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** Booked pickups whose box number or marker prefix is among the codes of a storage order. */
    matching: (trx: Transaction<DB>, customerId: number | null, boxNos: string[], prefixes: string[]) => {
      let q = trx
        .selectFrom('pickups')
        .select(['id', 'pickup_no', 'customer_id'])
        .where('status', '=', 'booked')
        .where((eb) =>
          eb.or([
            ...(boxNos.length ? [eb('box_no', 'in', boxNos)] : []),
            ...(prefixes.length ? [eb('marker_prefix', 'in', prefixes)] : []),
          ]),
        );
      if (customerId !== null) q = q.where('customer_id', '=', customerId);
      return q.execute();
    },

    insertMessage: (
      q: Q,
      m: { pickup_id: number; customer_id: number; kind: C.PickupMessageKind; params: object; created_at: string },
    ) =>
      q
        .insertInto('pickup_messages')
        .values({ ...m, params: JSON.stringify(m.params) })
        .execute(),

    async messages(scope: Scope, f: { offset: number; limit: number; order: 'asc' | 'desc'; pickupId?: number }) {
      let q = inScope(
        db
          .selectFrom('pickup_messages as m')
          .innerJoin('pickups as p', 'p.id', 'm.pickup_id')
          .innerJoin('customers as c', 'c.id', 'm.customer_id'),
        'm.customer_id',
        scope,
      );
      if (f.pickupId) q = q.where('m.pickup_id', '=', f.pickupId);
      return pageOf(
        q,
        (q) =>
          q
            .select([
              'm.id',
              'm.pickup_id',
              'p.pickup_no',
              'c.code as customer_code',
              'm.kind',
              'm.params',
              'm.created_at',
            ])
            .orderBy('m.created_at', f.order)
            .orderBy('m.id', f.order),
        f,
      );
    },

    customerExists: async (id: number) =>
      !!(await db.selectFrom('customers').select('id').where('id', '=', id).executeTakeFirst()),
  };
}
export type PickupsRepository = ReturnType<typeof createPickupsRepository>;
export type PickupRecord = NonNullable<Awaited<ReturnType<PickupsRepository['find']>>>;
