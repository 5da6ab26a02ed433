import { notifications } from '@console/contract';
import { call, useCall } from '@/lib';

export const fetchMessage = () => call(notifications.message, {});
export const useMessage = () => useCall(notifications.message, {});
