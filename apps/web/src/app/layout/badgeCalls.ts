/**
 * The header badges' calls (Badges.tsx), apart from their antd components so that the guard
 * can start them with `me` (prefetch.ts) and the header paints with its counts.
 */
import { orders, type RouteName } from '@console/contract';
import { prefetchCall } from '@/lib/query.ts';

/** A one-row page: the badge shows its `total`. */
export const onePage = { offset: 0, limit: 1, order: 'desc' } as const;

export const badgeCalls = [
  { route: 'order.error', def: orders.errorOrders },
  { route: 'order.abnormal', def: orders.abnormalOrders },
] as const satisfies readonly { route: RouteName; def: unknown }[];

export function prefetchBadges(routeNames: ReadonlySet<string>) {
  for (const b of badgeCalls) if (routeNames.has(b.route)) prefetchCall(b.def, onePage);
}
