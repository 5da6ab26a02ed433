import type { Database } from '../../db/database.ts';
import { SAME_RECIPIENT_MAX } from '../../domain/order-checks.ts';
import { orderAttention } from './orders.attention.ts';
import { orderCancelling } from './orders.cancel.ts';
import { orderCreation } from './orders.create.ts';
import { deletedOrders } from './orders.deleted.ts';
import { orderEdits } from './orders.edit.ts';
import { orderFinding } from './orders.find.ts';
import { createOrderWrites, type OrdersDeps } from './orders.write.ts';

export { type CatalogueEntry, lockKey, type OrdersDeps } from './orders.write.ts';
export { SAME_RECIPIENT_MAX };

/**
 * The orders service, one file per use case (ARCHITECTURE.md "Split by use case", as outline splits
 * commands): finding (orders.find.ts), changing (orders.edit.ts), creating (orders.create.ts),
 * attention (orders.attention.ts), cancelling (orders.cancel.ts) and the deleted ones' tombstones
 * (orders.deleted.ts), over the checks and write they share (orders.write.ts).
 */
export function createOrdersService(db: Database, clock: () => Date, deps: OrdersDeps) {
  const w = createOrderWrites(db, clock, deps);
  const finding = orderFinding(w);
  return {
    ...finding,
    ...orderEdits(w, finding.detail),
    ...orderCreation(w),
    ...orderAttention(w),
    ...orderCancelling(w),
    ...deletedOrders(db),
  };
}
export type OrdersService = ReturnType<typeof createOrdersService>;
