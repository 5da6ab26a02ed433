import { z } from 'zod';
import { defineCall, nothing } from './call.ts';
import { isoTime, paged, paging, ErrorCode } from './envelope.ts';
import { idOf, text } from './fields.ts';
import { chinaDay } from './orders.ts';

/**
 * Japanese export declarations (issue 15, spec §5 "Japan export declaration", §7 "Export
 * declarations"). Goods leaving Japan worth more than JPY 200,000 a shipment need an export
 * declaration to customs; below that a customer may still choose to declare. The caller's orders
 * that need or have one are listed with the exporter of record (the export nomination); each
 * holds a product name and an amount in JPY (both or neither). Operators upload the export
 * permit the customs broker returns; it goes by e-mail to the nomination's receive address.
 * Not in the spec's AES list: plain calls.
 */

/** Spec/issue: contents over this need an export declaration (whole yen). */
export const DECLARATION_THRESHOLD_JPY = 200_000;
/** Rows shown in an upload's preview (the rest are in its error workbook). */
export const DECLARATION_PREVIEW_ROWS = 200;
export const DECLARATION_BATCH_MAX_ROWS = 5_000;

/**
 * Why a permit's e-mail did not go: declMailFailed (its tries used up, or a failure with no better
 * word), declMailRefused (the mail server refused it: final), declMailStopped (the queue gave up
 * after its runs kept being cut short: it may or may not have arrived), declMailNoAddress (the
 * export nomination has no receiving address). Each is resent by uploading the permit again.
 */
export const PERMIT_MAIL_ERRORS = [
  'declMailFailed',
  'declMailRefused',
  'declMailStopped',
  'declMailNoAddress',
] as const;
export type PermitMailError = (typeof PERMIT_MAIL_ERRORS)[number];

export const exportDeclarationRow = z.object({
  orderId: z.number().int(),
  orderNo: z.string(),
  waybillNo: z.string().nullable(),
  customerId: z.number().int(),
  customerCode: z.string(),
  batchNo: z.string().nullable(),
  /** The order's goods value in JPY (whole yen, decimal string). */
  goodsJpy: z.string(),
  /** Over JPY 200,000: a declaration is required. */
  required: z.boolean(),
  declared: z.boolean(),
  productName: z.string().nullable(),
  /** Whole yen as a decimal string. */
  amountJpy: z.string().nullable(),
  exporter: z
    .object({ nameJa: z.string(), nameEn: z.string(), corporateNumber: z.string(), receiveEmail: z.string() })
    .nullable(),
  permit: z
    .object({
      uploadedAt: isoTime,
      emailedAt: isoTime.nullable(),
      /** Why the permit was not e-mailed, worded in the caller's language (null: sent or not yet tried). */
      emailError: z.string().nullable(),
      /** The same as a message key, for a console to word with its next step (issue 38). */
      emailErrorKey: z.enum(PERMIT_MAIL_ERRORS).nullable(),
      /** The id to quote to support (in the server's log with the cause); null where there is none. */
      emailErrorId: z.string().nullable(),
    })
    .nullable(),
  orderCreatedAt: isoTime,
  updatedAt: isoTime.nullable(),
});
export type ExportDeclarationRow = z.infer<typeof exportDeclarationRow>;

const filters = {
  batchNo: text({ min: 1, max: 64 }).optional(),
  /** Order numbers, one per line or comma separated. */
  orderNos: text({ max: 20_000, multiline: true }).optional(),
  declared: z.enum(['yes', 'no']).optional(),
  /** Order day range, China calendar days (UTC+8), inclusive. */
  dateFrom: chinaDay.optional(),
  dateTo: chinaDay.optional(),
};
export const exportDeclarationListRequest = paging
  .extend({ ...filters, sort: z.enum(['orderCreatedAt', 'goodsJpy', 'updatedAt']).default('orderCreatedAt') })
  .strict();
export type ExportDeclarationListRequest = z.output<typeof exportDeclarationListRequest>;
export const exportDeclarationFilters = z.object(filters).strict();
export type ExportDeclarationFilters = z.output<typeof exportDeclarationFilters>;

export const exportDeclarations = defineCall({
  path: 'exportDeclarations',
  summary: "The caller's orders that need (over JPY 200,000) or have an export declaration: filters, sort, paging.",
  permission: 'order.exportDeclarations',
  // Spec §7: export declarations run without a timeout.
  timeout: 0,
  request: exportDeclarationListRequest,
  response: paged(exportDeclarationRow).extend({
    /** False: no SMTP server configured, permits are not e-mailed (the page says so). */
    mailConfigured: z.boolean(),
  }),
});

/** Both filled or both empty (spec §5); the pair rule is the service's, with its messages. */
export const declarationFields = {
  productName: text({ max: 200 }).default(''),
  /** Whole yen, digits only; empty with an empty product name clears the declaration. */
  amountJpy: text({ max: 13 }).default(''),
};

export const updateExportDeclaration = defineCall({
  path: 'exportDeclaration/update',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Set (both filled) or clear (both empty) the product name and JPY amount of one order.',
  permission: 'order.exportDeclarations',
  timeout: 0,
  request: z.object({ orderId: idOf, ...declarationFields }).strict(),
  response: exportDeclarationRow,
});

const upload = (path: string, by: string) =>
  defineCall({
    path,
    summary:
      `Declarations from an xlsx keyed by ${by} (the layout of the matching download): a preview with an error ` +
      'workbook; with commit=true and no bad row, a run on the job queue writes every row in one transaction ' +
      '(all or nothing): `runId` names it, and exportDeclaration/batchRun tells when it is done.',
    permission: 'order.exportDeclarations',
    kind: 'multipart',
    timeout: 0,
    request: z.object({ commit: z.enum(['true', 'false']).default('false') }).strict(),
    response: z.object({
      total: z.number().int(),
      valid: z.number().int(),
      committed: z.boolean(),
      rows: z.array(
        z.object({
          row: z.number().int(),
          key: z.string(),
          productName: z.string(),
          amountJpy: z.string(),
          /** The reason in the caller's language; null when the row is good. */
          error: z.string().nullable(),
        }),
      ),
      errorFileId: z.number().int().nullable(),
      /**
       * With commit=true: the run writing the rows on the job queue (issue 27); `committed` is
       * then false, and exportDeclaration/batchRun reports the run until it is done.
       */
      runId: z.number().int().nullable(),
    }),
  });
export const updateExportDeclarationBatch = upload('exportDeclaration/updatebatch', 'order number');
export const updateExportDeclarationBatch2 = upload('exportDeclaration/updatebatch2', 'waybill number');

/** A declarations workbook's commit on the job queue; `error` in the caller's language. */
export const declarationRunStatus = z.enum(['queued', 'running', 'done', 'failed']);
export const exportDeclarationBatchRun = defineCall({
  path: 'exportDeclaration/batchRun',
  answers: [ErrorCode.NOT_FOUND],
  summary: "Where the caller's declarations commit (a run of updatebatch/updatebatch2) stands, from any instance.",
  permission: 'order.exportDeclarations',
  // Spec §7: export declarations' calls run without a client timeout (timeouts.test.ts).
  timeout: 0,
  request: z.object({ id: idOf }).strict(),
  response: z.object({
    id: z.number().int(),
    status: declarationRunStatus,
    total: z.number().int(),
    error: z.string().nullable(),
  }),
});

export const exportDeclarationErrors = defineCall({
  path: 'exportDeclaration/errors',
  answers: [ErrorCode.NOT_FOUND],
  summary: "The bad rows of the caller's declaration upload, with the reason and the row number.",
  permission: 'order.exportDeclarations',
  kind: 'blob',
  request: z.object({ fileId: idOf }).strict(),
  response: nothing,
});

const blob = (path: string, summary: string) =>
  defineCall({
    path,
    summary,
    permission: 'order.exportDeclarations',
    kind: 'blob',
    timeout: 0,
    request: exportDeclarationFilters,
    response: nothing,
  });
export const downloadExportDeclarations = blob(
  'exportDeclaration/download',
  'The listed declarations as xlsx keyed by order number (also the template of exportDeclaration/updatebatch).',
);
export const downloadExportDeclarations2 = blob(
  'exportDeclaration/download2',
  'The listed declarations as xlsx keyed by waybill number (also the template of exportDeclaration/updatebatch2).',
);
export const downloadDeclareAtCustoms = blob(
  'exportDeclaration/downloadDeclareAtCustoms',
  'What a customs broker keys into NACCS (export declaration, MDA) for the declared orders: one row per line.',
);

export const uploadPermit = defineCall({
  path: 'exportDeclaration/uploadPermit',
  answers: [ErrorCode.NOT_FOUND],
  summary: "Operators: attach the export permit PDF (checked by content) to an order's declaration and e-mail it.",
  permission: 'order.exportDeclarations.uploadPermit',
  kind: 'multipart',
  timeout: 0,
  request: z.object({ orderId: idOf }).strict(),
  response: z.object({
    declaration: exportDeclarationRow,
    /**
     * queued: a worker e-mails it (issue 27; the list's `permit.emailedAt` / `emailError` then say how it went);
     * notConfigured: no SMTP; noAddress: the nomination has no receive e-mail. `sent` and `failed` were answered
     * when the call sent the mail itself; kept so older consoles' types still read.
     */
    mail: z.enum(['queued', 'sent', 'notConfigured', 'noAddress', 'failed']),
  }),
});

export const downloadPermitPdf = defineCall({
  path: 'order/downloadPermitPdf',
  answers: [ErrorCode.NOT_FOUND],
  summary: "The export permit PDF of an order: its owner, the owner's agent and operators.",
  permission: 'order.exportDeclarations',
  kind: 'blob',
  file: 'pdf',
  request: z.object({ orderId: idOf }).strict(),
  response: nothing,
});
