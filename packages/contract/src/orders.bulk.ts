import { z } from 'zod';
import { defineCall, empty } from './call.ts';
import { ErrorCode } from './envelope.ts';
import { idOf, text } from './fields.ts';
import { orderStatus } from './orders.rows.ts';
import { pastedNumbers } from './orders.find.ts';
import { senderInput } from './orders.one.ts';

// ---------------------------------------------------------------------------
// Changing many orders at once: batch sender and updates (issue 11 #15). The spec names the
// pages, not their calls: each page has preview → apply under its own `order/<page>/…` prefix
// (docs/decisions.md). A preview is kept by the server and applied by its id, all or nothing.
// ---------------------------------------------------------------------------

/** The order fields a bulk change may set (sheet columns, preview rows). */
export const bulkField = z.enum([
  'senderName',
  'senderAddress',
  'senderPhone',
  'recipientName',
  'recipientIdCard',
  'recipientPhone',
  'recipientEmail',
  'recipientProvince',
  'recipientCity',
  'recipientDistrict',
  'recipientStreet',
  'recipientAddress',
  'recipientPostcode',
  'userRefNo',
  'remark',
]);
export type BulkField = z.infer<typeof bulkField>;
export const SENDER_FIELDS = ['senderName', 'senderAddress', 'senderPhone'] as const satisfies readonly BulkField[];

/** One order of a preview: what would change, or why it will not. */
export const bulkPreviewRow = z.object({
  /** The row of the uploaded sheet (null for pasted numbers). */
  row: z.number().int().nullable(),
  orderNo: z.string(),
  orderId: z.number().int().nullable(),
  customerCode: z.string().nullable(),
  status: orderStatus.nullable(),
  changes: z.array(z.object({ field: bulkField, old: z.string().nullable(), new: z.string().nullable() })),
  /** Why this order will not change (translated); null when it will (or is already as asked). */
  refusal: z.string().nullable(),
});
export const bulkPreview = z.object({
  /** Apply this id to make the changes; null when no order would change. */
  previewId: z.number().int().nullable(),
  changing: z.number().int(),
  unchanged: z.number().int(),
  refused: z.number().int(),
  rows: z.array(bulkPreviewRow),
  /** A workbook of the refused rows with the reason, to fix and upload again (null when none). */
  errorFileId: z.number().int().nullable(),
});
export type BulkPreview = z.infer<typeof bulkPreview>;
export const bulkApplied = z.object({ updated: z.number().int() });

export const batchSenderTemplate = defineCall({
  path: 'order/batchSender/template',
  summary: 'The batch-sender sheet: order number, sender name, address and phone (zh/en headers).',
  permission: 'order.batchSender',
  request: empty,
  response: z.null(),
  kind: 'blob',
});
export const batchSenderPreview = defineCall({
  path: 'order/batchSender/preview',
  summary: 'One sender for many orders (pasted order numbers): each order, its old and new sender, refusals.',
  permission: 'order.batchSender',
  request: z.object({
    orderNos: pastedNumbers.pipe(
      z
        .array(text({ max: 64 }))
        .min(1)
        .max(1000),
    ),
    sender: senderInput,
    customerId: idOf.optional(),
  }),
  response: bulkPreview,
});
export const batchSenderPreviewSheet = defineCall({
  path: 'order/batchSender/previewSheet',
  summary: 'A sender per order from the template sheet: each order, its old and new sender, refusals.',
  permission: 'order.batchSender',
  request: z.object({ customerId: idOf.optional() }),
  response: bulkPreview,
  kind: 'multipart',
  timeout: 0,
});
export const batchSenderApply = defineCall({
  path: 'order/batchSender/apply',
  answers: [ErrorCode.NOT_FOUND],
  summary: "Apply a batch-sender preview: every order it would change, or none (409 naming the first that can't).",
  permission: 'order.batchSender',
  request: z.object({ previewId: idOf }),
  response: bulkApplied,
  timeout: 0,
});
export const batchSenderErrors = defineCall({
  path: 'order/batchSender/errors',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'The refused rows of a batch-sender sheet with the reason, to fix and upload again.',
  permission: 'order.batchSender',
  request: z.object({ fileId: idOf }),
  response: z.null(),
  kind: 'blob',
});
export const updatesTemplate = defineCall({
  path: 'order/updates/template',
  summary: 'The updates sheet: order number and every field that can change (leave out the columns you keep).',
  permission: 'order.updates',
  request: empty,
  response: z.null(),
  kind: 'blob',
});
export const updatesPreview = defineCall({
  path: 'order/updates/preview',
  summary: 'Chosen fields of many orders from a sheet: old and new value per field, refusals by status.',
  permission: 'order.updates',
  request: z.object({ customerId: idOf.optional() }),
  response: bulkPreview,
  kind: 'multipart',
  timeout: 0,
});
export const updatesApply = defineCall({
  path: 'order/updates/apply',
  answers: [ErrorCode.NOT_FOUND],
  summary: "Apply an updates preview: every order it would change, or none (409 naming the first that can't).",
  permission: 'order.updates',
  request: z.object({ previewId: idOf }),
  response: bulkApplied,
  timeout: 0,
});
export const updatesErrors = defineCall({
  path: 'order/updates/errors',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'The refused rows of an updates sheet with the reason, to fix and upload again.',
  permission: 'order.updates',
  request: z.object({ fileId: idOf }),
  response: z.null(),
  kind: 'blob',
});
