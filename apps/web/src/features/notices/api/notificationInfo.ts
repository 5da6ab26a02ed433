import { notifications } from '@console/contract';
import { call, useCall } from '@/lib';

export const fetchNotificationInfo = (id: number) => call(notifications.notificationInfo, { id });
export const useNotificationInfo = (id: number | null) =>
  useCall(notifications.notificationInfo, { id: id ?? 0 }, { enabled: id !== null && id > 0, staleTime: 0 });
