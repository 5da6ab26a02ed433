import { items, type CallRequest } from '@console/contract';
import { call } from '@/lib';

/** `item/create`: silent, the form shows a 422 under its fields. */
export const createItem = (body: CallRequest<typeof items.createItem>) =>
  call(items.createItem, body, { silent: true });
