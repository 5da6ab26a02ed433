import { orders } from '@console/contract';
import { call, prefetchCall, useCall } from '@/lib';

export const fetchOrderStats = () => call(orders.orderStats, {});
export const useOrderStats = () => useCall(orders.orderStats, {});
export const prefetchOrderStats = () => prefetchCall(orders.orderStats, {});
