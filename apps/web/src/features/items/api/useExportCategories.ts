import { items } from '@console/contract';
import { useCall } from '@/lib';

/** `item/exportCategories (Japanese export categories)`: reference data of the item form; it rarely changes, so it is kept for ten minutes. */
export const useExportCategories = () => useCall(items.exportCategories, {}, { staleTime: 10 * 60_000 });
