import { items } from '@console/contract';
import { call } from '@/lib';

/** `item/fail` with the operator's reason (operators); silent: the dialog shows a 422. */
export const failItem = (id: number, reason: string) => call(items.failItem, { id, reason }, { silent: true });
