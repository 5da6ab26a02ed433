import { items, type CallRequest } from '@console/contract';
import { call } from '@/lib';

/** `item/update` (a failed item is resubmitted by it): silent, the form shows a 422 under its fields. */
export const updateItem = (body: CallRequest<typeof items.updateItem>) =>
  call(items.updateItem, body, { silent: true });
