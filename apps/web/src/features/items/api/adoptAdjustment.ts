import { items } from '@console/contract';
import { call } from '@/lib';

/** `item/adopt`: the customer takes an operator's adjustment. */
export const adoptAdjustment = (id: number) => call(items.adoptAdjustment, { id });
