import { items } from '@console/contract';
import { call } from '@/lib';

/** `item/approve` (operators). */
export const approveItem = (id: number) => call(items.approveItem, { id });
