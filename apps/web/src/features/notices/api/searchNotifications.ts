import { notifications, type CallRequest } from '@console/contract';
import { call, useCall } from '@/lib';

type Req = CallRequest<typeof notifications.searchNotifications>;
export const fetchSearchNotifications = (body: Req) => call(notifications.searchNotifications, body);
export const useSearchNotifications = (body: Req, enabled: boolean) =>
  useCall(notifications.searchNotifications, body, { enabled, placeholderData: (x) => x });
