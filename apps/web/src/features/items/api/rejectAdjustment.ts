import { items } from '@console/contract';
import { call } from '@/lib';

/** `item/reject`: the customer keeps the item as it is. */
export const rejectAdjustment = (id: number, reason?: string) =>
  call(items.rejectAdjustment, { id, reason: reason || undefined });
