import { useSession } from '@/lib';

/**
 * Who is looking: operators review (approve, fail, adjust: the `item.review` permission the
 * server checks), customers act for themselves, agents and operators choose a customer.
 */
export function useRole() {
  const { user, routeNames } = useSession();
  return {
    isOperator: routeNames.has('item.review'),
    isCustomer: !!user?.customer,
    customerId: user?.customer?.id,
    canAdopt: routeNames.has('unAdopt'),
  };
}
