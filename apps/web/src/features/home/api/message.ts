import { notifications } from '@console/contract';
import { call, prefetchCall, useCall } from '@/lib';

export const fetchMessage = () => call(notifications.message, {});
export const useMessage = () => useCall(notifications.message, {});
export const prefetchMessage = () => prefetchCall(notifications.message, {});
