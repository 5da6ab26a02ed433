import { items } from '@console/contract';
import { useCall } from '@/lib';

/** `item/categories (a tree)`: reference data of the item form; it rarely changes, so it is kept for ten minutes. */
export const useCategories = () => useCall(items.categories, {}, { staleTime: 10 * 60_000 });
