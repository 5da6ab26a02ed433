import { items } from '@console/contract';

/** `items`: the Item List call (filters, sort, paging on the server); pages page it with `usePagedQuery`. */
export const itemsCall = items.items;
