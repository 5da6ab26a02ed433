import type { Database } from '../db/database.ts';
import { addDays, dayState, japanToday } from '../modules/pickups/pickups.calendar.ts';

/**
 * Demo pickups for `demo` and `demo2` (embedded default only): each has a Tokyo pickup booked on
 * the next bookable day (16-18, its place taken in the slot's counter) and one cancelled, with
 * their messages, so the list, the slip and the messages page show something at once.
 */
export async function seedDemoPickups(db: Database, now: Date) {
  const customers = await db
    .selectFrom('users')
    .innerJoin('customers as c', 'c.id', 'users.customer_id')
    .select(['users.id as user_id', 'c.id as customer_id', 'c.code'])
    .where('users.name', 'in', ['demo', 'demo2'])
    .orderBy('c.id')
    .execute();
  let date = addDays(japanToday(now), 1);
  while (!dayState(date, now).open) date = addDays(date, 1);
  const at = now.toISOString();
  const slot = '16-18';
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('pickup_slot_bookings')
      .values({ region: 'tokyo', pickup_date: date, slot, booked: customers.length })
      .execute();
    for (const [k, c] of customers.entries()) {
      for (const status of ['booked', 'cancelled'] as const) {
        const pickupNo = `PKDEMO${k + 1}${status === 'booked' ? '1' : '2'}`;
        const prefix = `${c.code}${status === 'booked' ? 'A' : 'B'}`;
        const { id } = await trx
          .insertInto('pickups')
          .values({
            pickup_no: pickupNo,
            customer_id: c.customer_id,
            region: 'tokyo',
            pickup_date: date,
            slot,
            box_no: `${c.code}-BOX-${status === 'booked' ? 1 : 2}`,
            shop_abbr: k ? 'DEWC' : 'YSST',
            big_cartons: 2,
            small_parcels: 3,
            marker_prefix: prefix,
            status,
            cancel_reason: status === 'cancelled' ? '店铺临时休息 / Shop closed that day' : null,
            storage_order_id: null,
            created_by: c.user_id,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const params = { pickupNo, region: 'tokyo', date, slot };
        await trx
          .insertInto('pickup_messages')
          .values([
            {
              pickup_id: id,
              customer_id: c.customer_id,
              kind: 'booked',
              params: JSON.stringify(params),
              created_at: at,
            },
            ...(status === 'cancelled'
              ? [
                  {
                    pickup_id: id,
                    customer_id: c.customer_id,
                    kind: 'cancelled',
                    params: JSON.stringify({ ...params, reason: '店铺临时休息 / Shop closed that day' }),
                    created_at: at,
                  },
                ]
              : []),
          ])
          .execute();
      }
    }
  });
}
