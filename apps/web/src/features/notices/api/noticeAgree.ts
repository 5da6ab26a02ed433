import { notifications } from '@console/contract';
import { invalidateCall, useCallMutation } from '@/lib';

export const useNoticeAgree = () =>
  useCallMutation(notifications.noticeAgree, {
    onSuccess: () =>
      Promise.all([
        invalidateCall(notifications.notifications),
        invalidateCall(notifications.notificationInfo),
        invalidateCall(notifications.noticeCheck),
        invalidateCall(notifications.message),
      ]),
  });
