import { items } from '@console/contract';
import { useCall } from '@/lib';

/** `item/brands`: reference data of the item form; it rarely changes, so it is kept for ten minutes. */
export const useBrands = () => useCall(items.brands, {}, { staleTime: 10 * 60_000 });
