import { items } from '@console/contract';
import { useCall } from '@/lib';

/** `item`: one item with its whole history and every adjustment. */
export const useItem = (id: number) => useCall(items.item, { id }, { enabled: id > 0 });
