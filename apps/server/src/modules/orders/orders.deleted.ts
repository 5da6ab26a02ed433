import type { orders } from '@console/contract';
import type { Database } from '../../db/database.ts';
import type { Scope } from '../../lib/scope.ts';
import { createDeletedOrdersRepository } from './orders.deleted.repository.ts';

/**
 * Deleted orders as their customer and the staff read them (issue 36 #6). A delete takes the order's
 * items and events with it; its `order.delete` audit row (orders.edit.ts `remove`) is the tombstone:
 * the order's numbers, state and owner as they were, who deleted it and when.
 */
export function deletedOrders(db: Database) {
  const repo = createDeletedOrdersRepository(db);
  return {
    async deletedPage(
      scope: Scope,
      f: { offset: number; limit: number; order: 'asc' | 'desc'; orderNo?: string },
    ): Promise<{ total: number; list: orders.DeletedOrder[] }> {
      const { total, list } = await repo.page(scope, f);
      return {
        total,
        list: list.map((r) => {
          const d = JSON.parse(r.detail) as Record<string, unknown>;
          const str = (k: string) => (typeof d[k] === 'string' ? (d[k] as string) : null);
          return {
            orderNo: str('orderNo') ?? '',
            waybillNo: str('waybillNo'),
            systemNo: str('systemNo'),
            status: str('status') ?? '',
            channel: str('channel') ?? '',
            createdAt: str('createdAt'),
            customerId: r.customer_id ?? Number(d.customerId),
            deletedAt: new Date(r.at).toISOString(),
            deletedBy: r.user_name,
          };
        }),
      };
    },
  };
}
