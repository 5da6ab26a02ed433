import { items, type CallRequest } from '@console/contract';
import { call } from '@/lib';

/** `item/adjust`: an operator's new clearance data for the customer to adopt; silent, the dialog shows a 422. */
export const adjustItem = (body: CallRequest<typeof items.adjustItem>) =>
  call(items.adjustItem, body, { silent: true });
