import { orders, type Paging } from '@console/contract';
import type { Database } from '../../db/database.ts';
import type { Scope } from '../../lib/scope.ts';
import { presentOrderRow } from './orders.presenter.ts';
import { createOrdersRepository } from './orders.repository.ts';

export function createOrdersService(db: Database, clock: () => Date) {
  const repo = createOrdersRepository(db);
  return {
    async attention(scope: Scope, kind: 'error' | 'abnormal', p: Paging & { keyword?: string }) {
      const { total, list } = await repo.attentionPage(scope, kind, p);
      return { total, list: list.map(presentOrderRow) };
    },
    async stats(scope: Scope) {
      const since = new Date(clock().getTime() - 30 * 86_400_000);
      const [byStatusRows, attention, perDay] = await Promise.all([
        repo.countByStatus(scope),
        repo.countAttention(scope),
        repo.perDay(scope, since.toISOString()),
      ]);
      const byStatus = Object.fromEntries(orders.orderStatus.options.map((s) => [s, 0])) as Record<string, number>;
      for (const r of byStatusRows) byStatus[r.status] = Number(r.n);
      const counts = new Map(perDay.map((r) => [r.day, Number(r.n)]));
      const last30Days = Array.from({ length: 30 }, (_, i) => {
        // Days as seen in China (UTC+8), oldest first.
        const d = new Date(clock().getTime() + 8 * 3_600_000 - (29 - i) * 86_400_000).toISOString().slice(0, 10);
        return { day: d, count: counts.get(d) ?? 0 };
      });
      return {
        byStatus: byStatus as never,
        errors: Number(attention.errors ?? 0),
        abnormal: Number(attention.abnormal ?? 0),
        last30Days,
      };
    },
  };
}
export type OrdersService = ReturnType<typeof createOrdersService>;
