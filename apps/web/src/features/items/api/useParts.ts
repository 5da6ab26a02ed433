import { items } from '@console/contract';
import { useCall } from '@/lib';

/** `item/parts`: reference data of the item form; it rarely changes, so it is kept for ten minutes. */
export const useParts = () => useCall(items.parts, {}, { staleTime: 10 * 60_000 });
