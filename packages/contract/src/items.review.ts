import { z } from 'zod';
import { defineCall } from './call.ts';
import { paged, paging, ErrorCode } from './envelope.ts';
import { idOf, text } from './fields.ts';
import { adjustmentChanges, adjustmentRow, adjustmentStatus, itemRow } from './items.records.ts';

// ---------------------------------------------------------------------------
// Review (operators only; 403 for customers and agents)
// ---------------------------------------------------------------------------

export const approveItem = defineCall({
  path: 'item/approve',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Operator: approve a pending item.',
  aes: true,
  permission: 'item.review',
  request: z.object({ id: idOf }).strict(),
  response: itemRow,
});

export const failItem = defineCall({
  path: 'item/fail',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Operator: fail a pending item with a reason (it joins the Failed To Pass Item List).',
  aes: true,
  permission: 'item.review',
  request: z.object({ id: idOf, reason: text({ min: 1, max: 500, multiline: true }) }).strict(),
  response: itemRow,
});

export const adjustItem = defineCall({
  path: 'item/adjust',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'Operator: propose new clearance data for an item; recorded before/after; the customer adopts or rejects it.',
  aes: true,
  permission: 'item.review',
  request: z
    .object({
      id: idOf,
      /** Only the fields to change (at least one, different from the current value). */
      changes: adjustmentChanges,
      note: text({ max: 500, multiline: true }).optional(),
    })
    .strict(),
  response: adjustmentRow,
});

// ---------------------------------------------------------------------------
// Adjustments (the unAdopt page is `item/adj` with status 'pending')
// ---------------------------------------------------------------------------

export const itemAdjustments = defineCall({
  path: 'item/adj',
  summary: 'Adjustments of items (before/after, who, when); status "pending" is the unAdopt page.',
  aes: true,
  permission: 'unAdopt',
  request: paging
    .extend({
      status: adjustmentStatus.optional(),
      itemId: idOf.optional(),
      customerId: idOf.optional(),
      jan: text({ min: 1, max: 13 }).optional(),
    })
    .strict(),
  response: paged(adjustmentRow),
});

export const adoptAdjustment = defineCall({
  path: 'item/adopt',
  answers: [ErrorCode.NOT_FOUND],
  summary: "Customer: adopt an operator's adjustment: its values become the item's and the item is approved.",
  aes: true,
  permission: 'unAdopt',
  request: z.object({ id: idOf }).strict(),
  response: itemRow,
});

export const rejectAdjustment = defineCall({
  path: 'item/reject',
  answers: [ErrorCode.NOT_FOUND],
  summary: "Customer: reject an operator's adjustment (the item keeps its data), with an optional reason.",
  aes: true,
  permission: 'unAdopt',
  request: z.object({ id: idOf, reason: text({ max: 500, multiline: true }).optional() }).strict(),
  response: adjustmentRow,
});
