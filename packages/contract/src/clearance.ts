import { z } from 'zod';
import { defineCall } from './call.ts';
import { ErrorCode } from './envelope.ts';
import { idOf, text } from './fields.ts';

/**
 * Clearance results (issue 13, "the order's life"): the clearance company says for each shipped
 * order whether customs released or refused it. Operators upload the company's result sheet
 * (one template per company: waybill number, result, reason code, remark), or the company calls
 * the signed webhook. Released orders are released; refused ones become error orders with the
 * reason, for the customer to fix on the Error Order List. All or nothing: one row that cannot
 * be applied refuses the whole sheet (or call), with an error workbook of those rows.
 */

export const clearanceResult = z.enum(['released', 'refused']);
export type ClearanceResult = z.infer<typeof clearanceResult>;

/** A clearance company's code (`customsClearanceCompanies`). */
export const clearanceCompany = text({ min: 1, max: 32 });

export const clearanceTemplate = defineCall({
  path: 'clearance/template',
  summary: "A clearance company's result sheet: waybill number, result (released / refused), reason code, remark.",
  permission: 'clearance.results',
  kind: 'blob',
  request: z.object({ company: clearanceCompany }).strict(),
  response: z.null(),
});

export const clearanceUploadResult = z.object({
  /** True when every row was applied; false when the sheet was refused and nothing changed. */
  applied: z.boolean(),
  /** Rows of the sheet. */
  rows: z.number().int(),
  /** Orders released / refused (0 when not applied). */
  released: z.number().int(),
  refused: z.number().int(),
  /** Rows that could not be applied (each in the error workbook with its reason). */
  errorRows: z.number().int(),
  errorFileId: z.number().int().nullable(),
});
export type ClearanceUploadResult = z.infer<typeof clearanceUploadResult>;

export const clearanceUpload = defineCall({
  path: 'clearance/upload',
  summary:
    "Operators: apply a clearance company's result sheet (xlsx) to its shipped orders, all rows or none " +
    '(then an error workbook of the rows that cannot be applied).',
  permission: 'clearance.results',
  kind: 'multipart',
  timeout: 0,
  request: z.object({ company: clearanceCompany }).strict(),
  response: clearanceUploadResult,
});

export const clearanceErrors = defineCall({
  path: 'clearance/errors',
  answers: [ErrorCode.NOT_FOUND],
  summary: "A refused result sheet's rows with the reason of each, to fix and upload again.",
  permission: 'clearance.results',
  kind: 'blob',
  request: z.object({ fileId: idOf }).strict(),
  response: z.null(),
});

/**
 * The webhook's body (`POST /api/clearance/webhook`, not a console call: no user token, signed by
 * the company). Headers: `X-Clearance-Company` (code), `X-Clearance-Timestamp` (Unix seconds),
 * `X-Clearance-Signature` (`sha256=` + hex HMAC-SHA256 of `timestamp + "." + raw body` with the
 * company's secret). `deliveryId` is signed with the body: a delivery is taken once.
 */
export const clearanceWebhookBody = z
  .object({
    deliveryId: text({ min: 8, max: 100 }),
    results: z
      .array(
        z
          .object({
            waybillNo: text({ min: 1, max: 64 }),
            result: clearanceResult,
            reasonCode: text({ min: 1, max: 16 }).nullish(),
            remark: text({ min: 1, max: 500 }).nullish(),
          })
          .strict(),
      )
      .min(1)
      .max(5000),
  })
  .strict();
export type ClearanceWebhookBody = z.infer<typeof clearanceWebhookBody>;

export const clearanceWebhookAnswer = z.object({
  released: z.number().int(),
  refused: z.number().int(),
});

export const CLEARANCE_WEBHOOK_HEADERS = {
  company: 'x-clearance-company',
  timestamp: 'x-clearance-timestamp',
  signature: 'x-clearance-signature',
} as const;
/** A signed call older or newer than this is refused (seconds). */
export const CLEARANCE_WEBHOOK_WINDOW_SECONDS = 300;
