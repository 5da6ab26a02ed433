import { z } from 'zod';
import { expectedVersion } from './versions.ts';
import { defineCall } from './call.ts';
import { paged, paging, ErrorCode } from './envelope.ts';
import { idOf, text } from './fields.ts';
import { chinaDay } from './orders.ts';
import { itemDetail, itemInput, itemRow, itemStatus } from './items.records.ts';

// ---------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------

export const itemSort = z.enum(['createdAt', 'updatedAt', 'jan', 'nameZh', 'status']);
/** Server-side filters of the item list; the Failed To Pass Item List is `status: 'failed'`. */
export const itemFilter = z.object({
  status: itemStatus.optional(),
  jan: text({ min: 1, max: 13 }).optional(),
  /** Matches any of the three names (contains). */
  name: text({ min: 1, max: 100 }).optional(),
  brandId: idOf.optional(),
  /** Matches the category and everything under it. */
  categoryId: idOf.optional(),
  partId: idOf.optional(),
  group: text({ min: 1, max: 64 }).optional(),
  customerId: idOf.optional(),
  /** Only items with adjustments waiting for the customer. */
  hasPendingAdjustment: z.boolean().optional(),
  /** Creation day range, China calendar days (UTC+8), inclusive. */
  dateFrom: chinaDay.optional(),
  dateTo: chinaDay.optional(),
});
export const itemListRequest = paging
  .extend(itemFilter.shape)
  .extend({ sort: itemSort.default('createdAt') })
  .strict();
export type ItemListRequest = z.output<typeof itemListRequest>;

export const items = defineCall({
  path: 'items',
  summary: 'Item List: filters (status, JAN, any name, brand, category, part, group, dates), sort, paging.',
  aes: true,
  permission: 'item.list',
  request: itemListRequest,
  response: paged(itemRow),
});

export const item = defineCall({
  path: 'item',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'One item with its whole history and every adjustment.',
  aes: true,
  permission: 'item.info',
  request: z.object({ id: idOf }).strict(),
  response: itemDetail,
});

export const createItem = defineCall({
  path: 'item/create',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Declare an item (pending review). JAN checked (EAN-13/EAN-8) and unique per customer.',
  aes: true,
  permission: 'item.create',
  request: itemInput.extend({ customerId: idOf.optional() }).strict(),
  response: itemRow,
});

export const updateItem = defineCall({
  path: 'item/update',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'Change an item. A failed item is resubmitted (pending); an approved one goes back to pending when clearance data changes.',
  aes: true,
  permission: 'item.update',
  /** `version`: the one the form was loaded from; a stale one is a 409 `recordChanged` with the item now. */
  request: itemInput.extend({ id: idOf, version: expectedVersion }).strict(),
  response: itemRow,
});
