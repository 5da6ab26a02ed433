import { z } from 'zod';
import { defineCall, empty, nothing } from './call.ts';
import { isoTime, paged, paging, ErrorCode } from './envelope.ts';
import { idOf, text } from './fields.ts';

/**
 * Address-modification batches (spec §7 "Label address update", issue 15; the spec spells the
 * calls `updateLableB`). A customer uploads a workbook of order numbers with new recipient
 * addresses; the dry run (`prompt`) stores a draft batch and answers per row the old and the new
 * address, the resolved division and what would happen (refused: shipped, released, cancelled,
 * intercepted, not found; warned: already printed, a replacement label "B" is due). `create`
 * confirms the draft: a job applies every accepted row or none (`progress`). Plain calls, as
 * spec §7 marks them.
 */

export const LABEL_B_MAX_ROWS = 10_000;
export const labelBStatus = z.enum(['draft', 'applying', 'done', 'failed']);
export type LabelBStatus = z.infer<typeof labelBStatus>;
export const labelBOutcome = z.enum(['ok', 'refused', 'changed']);

export const labelBAddress = z.object({
  name: z.string(),
  phone: z.string(),
  province: z.string(),
  city: z.string(),
  district: z.string(),
  address: z.string(),
});
export type LabelBAddress = z.infer<typeof labelBAddress>;

export const labelBBatchRow = z.object({
  id: z.number().int(),
  batchNo: z.string(),
  customerId: z.number().int().nullable(),
  customerCode: z.string().nullable(),
  status: labelBStatus,
  progress: z.number().int(),
  fileName: z.string().nullable(),
  rowCount: z.number().int(),
  refusedCount: z.number().int(),
  changedCount: z.number().int(),
  /** Printed orders marked for a replacement label "B". */
  labelBCount: z.number().int(),
  /** Why the apply failed (nothing was changed), in the caller's language. */
  error: z.string().nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type LabelBBatchRow = z.infer<typeof labelBBatchRow>;

export const labelBLine = z.object({
  rowNo: z.number().int(),
  orderNo: z.string(),
  orderId: z.number().int().nullable(),
  oldAddress: labelBAddress.nullable(),
  newAddress: labelBAddress,
  /** The district's division code (6 digits) when the new address resolved. */
  divisionCode: z.string().nullable(),
  outcome: labelBOutcome,
  /** The refusal, in the caller's language. */
  reason: z.string().nullable(),
  /** The field a refusal is about (e.g. `province`), when it is about one. */
  reasonField: z.string().nullable(),
  /** The warning (label B due), in the caller's language. */
  warning: z.string().nullable(),
  labelB: z.boolean(),
});
export type LabelBLine = z.infer<typeof labelBLine>;

export const labelBDetail = z.object({ batch: labelBBatchRow, rows: z.array(labelBLine) });
export type LabelBDetail = z.infer<typeof labelBDetail>;

export const labelBListRequest = paging
  .extend({
    batchNo: text({ min: 1, max: 40 }).optional(),
    status: labelBStatus.optional(),
    customerId: idOf.optional(),
  })
  .strict();
export type LabelBListRequest = z.output<typeof labelBListRequest>;

export const labelBList = defineCall({
  path: 'updateLableB/list',
  summary: "The caller's address-modification batches with their counts and status, newest first.",
  permission: 'order.updateLabelB',
  request: labelBListRequest,
  response: paged(labelBBatchRow),
});

const byId = z.object({ id: idOf }).strict();

export const labelBProgress = defineCall({
  path: 'updateLableB/progress',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Status and progress (0–100) of a batch being applied.',
  permission: 'order.updateLabelB',
  request: byId,
  response: labelBBatchRow,
});

export const labelBInfo = defineCall({
  path: 'updateLableB/info',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'One batch with its rows: old and new address, outcome, refusal or warning.',
  permission: 'order.updateLabelB',
  request: byId,
  response: labelBDetail,
});

export const labelBTemplate = defineCall({
  path: 'updateLableB/downloadXlsx',
  summary: 'The upload template (order number, name, phone, province, city, district, address).',
  permission: 'order.updateLabelB',
  kind: 'blob',
  request: empty,
  response: nothing,
});

export const labelBExport = defineCall({
  path: 'updateLableB/export',
  answers: [ErrorCode.NOT_FOUND],
  summary: "A batch's rows with their results, as an xlsx.",
  permission: 'order.updateLabelB',
  kind: 'blob',
  timeout: 0,
  request: byId,
  response: nothing,
});

const optionalId = z.preprocess((v) => (v === '' || v === null ? undefined : v), idOf.optional());

export const labelBPrompt = defineCall({
  path: 'updateLableB/prompt',
  summary:
    'Dry run of an address workbook (multipart, customerId a form field): stores a draft batch and answers ' +
    'every row with its old and new address and outcome; no order changes.',
  permission: 'order.updateLabelB',
  kind: 'multipart',
  timeout: 0,
  request: z.object({ customerId: optionalId }).strict(),
  response: labelBDetail,
});

export const labelBCreate = defineCall({
  path: 'updateLableB/create',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Confirm a draft batch: a job applies every accepted row or none (follow it with updateLableB/progress).',
  permission: 'order.updateLabelB',
  request: byId,
  response: labelBBatchRow,
});
