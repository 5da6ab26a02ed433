import { notifications, type CallRequest } from '@console/contract';
import { call, invalidateCall } from '@/lib';

/** Operator: publish a notice; every reader's lists, bell and notices gate refresh. */
export async function publishNotice(body: CallRequest<typeof notifications.publishNotice>) {
  const out = await call(notifications.publishNotice, body);
  await Promise.all([
    invalidateCall(notifications.notifications),
    invalidateCall(notifications.message),
    invalidateCall(notifications.noticeCheck),
  ]);
  return out;
}
