import { orders } from '@console/contract';
import { call, useCall } from '@/lib';

export const fetchOrderStats = () => call(orders.orderStats, {});
export const useOrderStats = () => useCall(orders.orderStats, {});
