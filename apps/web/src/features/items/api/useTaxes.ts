import { items } from '@console/contract';
import { useCall } from '@/lib';

/** `item/taxes (code, name, unit, amount, rate)`: reference data of the item form; it rarely changes, so it is kept for ten minutes. */
export const useTaxes = () => useCall(items.taxes, {}, { staleTime: 10 * 60_000 });
