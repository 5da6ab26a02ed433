import { items } from '@console/contract';

/** `item/adj`: adjustments (before/after, who, when); the unAdopt page pages it with status "pending". */
export const adjustmentsCall = items.itemAdjustments;
