import { notifications, type CallRequest } from '@console/contract';
import { call, useCall } from '@/lib';

type Req = CallRequest<typeof notifications.notifications>;
export const fetchNotifications = (body: Req) => call(notifications.notifications, body);
export const useNotifications = (body: Req) =>
  useCall(notifications.notifications, body, { placeholderData: (x) => x });
