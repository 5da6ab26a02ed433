import type { Database } from '../db/database.ts';
import { visibleOrders } from './order-writer.ts';

export interface DefaultSender {
  name: string | null;
  address: string | null;
  phone: string | null;
}

/**
 * A customer's default sender (issue 28 #5): the sender of its latest order that had one, else its
 * first export nomination. One rule for the single-create form (sendAddress) and the batch import,
 * so an imported order prints the same "寄件人 From" a typed one would.
 */
export async function defaultSenderOf(db: Database, customerId: number): Promise<DefaultSender | null> {
  const last = await db
    .selectFrom('orders')
    .select(['sender_name', 'sender_address', 'sender_phone'])
    .where('customer_id', '=', customerId)
    .where('sender_name', 'is not', null)
    .$call(visibleOrders(db, 'orders'))
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (last) return { name: last.sender_name, address: last.sender_address, phone: last.sender_phone };
  const en = await db
    .selectFrom('export_nominations')
    .select(['name_en', 'address_en', 'tel'])
    .where('customer_id', '=', customerId)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return en ? { name: en.name_en, address: en.address_en, phone: en.tel } : null;
}
