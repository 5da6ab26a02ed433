/**
 * Element permission (spec §6): renders its children only when the user's accessed routes
 * contain the named route. The server enforces the rule; this only hides.
 *
 *   <Permission name="order.error"><Button>…</Button></Permission>
 */
import type { RouteName } from '@console/contract';
import type { ReactNode } from 'react';
import { useSession } from '@/lib/session.ts';

export function Permission({
  name,
  children,
  fallback = null,
}: {
  name: RouteName | RouteName[];
  children: ReactNode;
  fallback?: ReactNode;
}) {
  const { routeNames } = useSession();
  const names = Array.isArray(name) ? name : [name];
  return names.some((n) => routeNames.has(n)) ? children : fallback;
}

/** Hook form for logic: `const canSeeErrors = usePermission('order.error')`. */
export function usePermission(name: RouteName): boolean {
  return useSession().routeNames.has(name);
}
