import { z } from 'zod';
import { defineCall, nothing } from './call.ts';
import { isoTime, money, paged, paging, ErrorCode } from './envelope.ts';
import { idOf, text } from './fields.ts';
import { progressField } from './export-jobs.ts';
import { channelCode } from './reference.ts';
import { catalogueMark, chinaDay, taxEstimate } from './orders.ts';

/**
 * Orders from spreadsheets (issue 4): template downloads, batch upload with a
 * preview, confirmation (commit), progress, and the batch list.
 */

/** Template kinds; each has one data-driven column definition on the server. */
export const templateKind = z.enum([
  'order',
  'import',
  'importBoxC',
  'usaBoxC',
  'usaDomestic',
  'au',
  'uk',
  'ph',
  'th',
  'sg',
  'usa',
  'ems',
  'waybillNumber',
]);
export type TemplateKind = z.infer<typeof templateKind>;

/** parsing → preview → committing → done | failed (a batch is all or nothing). */
export const batchStatus = z.enum(['parsing', 'preview', 'committing', 'done', 'failed']);
export type BatchStatus = z.infer<typeof batchStatus>;

export const confirmationKind = z.enum(['minorId', 'multiplePricesPerJan', 'crossBorderLimit']);
export type ConfirmationKind = z.infer<typeof confirmationKind>;

/** Multipart text fields arrive as strings; an empty field means "not chosen". */
const optionalId = z.preprocess((v) => (v === '' || v === null ? undefined : v), idOf.optional());
const optionalCode = z.preprocess((v) => (v === '' || v === null ? undefined : v), text({ max: 32 }).optional());

/** The choices the import page makes beside the file. */
export const uploadFields = z.object({
  channel: z.preprocess((v) => (v === '' ? undefined : v), channelCode.optional()),
  exportNominationId: optionalId,
  clearanceCompany: optionalCode,
  /** Agents and operators choose the customer; a customer imports for itself. */
  customerId: optionalId,
});

export type UploadFields = z.output<typeof uploadFields>;

export const batchRow = z.object({
  id: z.number().int(),
  batchNo: z.string(),
  customerId: z.number().int(),
  customerCode: z.string(),
  /** The customer's name: agents and operators see whose batch it is. */
  customerName: z.string(),
  channel: channelCode,
  templateKind: z.string(),
  /** The export nomination chosen at upload (its English name), if any. */
  exportNomination: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  status: batchStatus,
  progress: z.number().int(),
  totalRows: z.number().int(),
  validRows: z.number().int(),
  invalidRows: z.number().int(),
  confirmRows: z.number().int(),
  /**
   * In a preview: the orders "import the valid orders now" makes (orders with errors left out);
   * once done: the orders made.
   */
  orderCount: z.number().int(),
  /** An unconfirmed preview can be confirmed (or reopened) until then; null otherwise. */
  previewUntil: isoTime.nullable(),
  receiveStatus: z.string(),
  errorMessage: z.string().nullable(),
  hasErrorWorkbook: z.boolean(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type BatchRow = z.infer<typeof batchRow>;

export const batchIssue = z.object({
  /** 1-based spreadsheet row. */
  row: z.number().int(),
  /** Column letter and title, or null for a row-level issue. */
  column: z.string().nullable(),
  columnTitle: z.string().nullable(),
  message: z.string(),
});

export const batchProgress = batchRow.extend({
  /** The first errors, in row order (the error workbook holds them all). */
  errors: z.array(batchIssue),
  /** Orders with errors: left out by "import the valid orders now", made by fixing and uploading again. */
  invalidOrders: z.number().int(),
  /**
   * What must be confirmed before the batch can be committed, per kind, among the orders it would
   * make: `count` orders, their first rows in `rows`.
   */
  confirmations: z.array(
    z.object({ kind: confirmationKind, message: z.string(), count: z.number().int(), rows: z.array(z.number().int()) }),
  ),
  /** Each order that needs confirmation (the first 200), with its row and the reasons. */
  confirmOrders: z.array(
    z.object({
      row: z.number().int(),
      orderNo: z.string(),
      reasons: z.array(z.object({ kind: confirmationKind, message: z.string() })),
    }),
  ),
  /**
   * What the orders to be made should be known for (issue 12), the first 200 orders: items not
   * approved in the customer's catalogue, the tax estimate, a recipient the order would take past
   * the yearly cross-border limit. Warnings: they do not stop the import.
   */
  orderNotes: z.array(
    z.object({
      row: z.number().int(),
      orderNo: z.string(),
      /** Items not approved in the catalogue (row of the item, its JAN and status). */
      items: z.array(z.object({ row: z.number().int(), jan: z.string(), status: catalogueMark })),
      taxEstimate: taxEstimate.nullable(),
      yearlyLimit: z.boolean(),
      /** The warnings in the caller's language. */
      messages: z.array(z.string()),
    }),
  ),
  /** Over every order to be made. */
  notesSummary: z.object({
    /** Items not approved in the catalogue. */
    unregisteredItems: z.number().int(),
    /** Orders that would take their recipient past the yearly limit. */
    yearlyLimitOrders: z.number().int(),
    /** Sum of the orders' tax estimates, CNY. */
    taxTotal: money,
    /** Orders with an estimate (their channel has a regime). */
    taxedOrders: z.number().int(),
  }),
  /** Order numbers repeated in the sheet: the last occurrence wins. */
  duplicates: z.array(z.object({ orderNo: z.string(), rows: z.array(z.number().int()), keptRow: z.number().int() })),
  /** While parsing: 0 when its parse runs, n when n-th in line for a parse worker; absent otherwise. */
  queuePosition: z.number().int().min(0).optional(),
});
export type BatchProgress = z.infer<typeof batchProgress>;

const upload = (
  path: string,
  summary: string,
  permission: 'order.createImport' | 'order.createImportUsa' | 'order.createImportEms',
) =>
  defineCall({
    path,
    summary,
    kind: 'multipart',
    timeout: 0,
    permission,
    request: uploadFields,
    response: batchRow,
    // Unread or unagreed notices block ordering (spec §5).
    answers: [ErrorCode.NOTICES_PENDING],
  });

export const create = upload(
  'order/batch/create',
  'Upload an order-template workbook (channel chosen on the page); answers at once, parse and preview follow in progress.',
  'order.createImport',
);
export const createImport = upload(
  'order/batch/createImport',
  "Upload the channel's import template (JP, SG, AU, UK, PH, TH, US domestic, USA).",
  'order.createImport',
);
export const createImportByBoxC = upload(
  'order/batch/createImportByBoxC',
  'Upload the Japan box-C import template.',
  'order.createImport',
);
export const createUsaBoxcImport = upload(
  'order/batch/createUsaBoxcImport',
  'Upload the USA box-C import template.',
  'order.createImportUsa',
);
export const createEmsImport = upload(
  'order/batch/createEmsImport',
  'Upload the EMS import template.',
  'order.createImportEms',
);

const batchId = z.object({ id: idOf });

export const confirm = defineCall({
  path: 'order/batch/confirm',
  answers: [ErrorCode.NOT_FOUND, ErrorCode.NOTICES_PENDING],
  summary:
    'Commit a previewed batch: every order it makes or none. Lists the confirmations the user accepted; `skipInvalid` makes the valid orders of a batch with errors (the rows with errors stay in its error workbook).',
  timeout: 0,
  request: batchId.extend({
    confirmations: z.array(confirmationKind).max(10).default([]),
    skipInvalid: z.boolean().default(false),
  }),
  response: batchRow,
});

export const progress = defineCall({
  path: 'order/batch/progress',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Status, progress (0–100) and the preview of a batch.',
  request: batchId,
  response: batchProgress,
});

export const errorWorkbook = defineCall({
  path: 'order/batch/download/errors',
  answers: [ErrorCode.NOT_FOUND],
  summary: "The error workbook: the customer's rows with an error column and the bad cells marked.",
  kind: 'blob',
  timeout: 0,
  request: batchId,
  response: nothing,
});

const dateRange = z.object({ from: chinaDay.optional(), to: chinaDay.optional() });

export const batches = defineCall({
  path: 'order/batches',
  summary: 'Batches, newest first (tenant-scoped).',
  permission: 'order.batchList',
  request: paging.extend({
    batchNo: text({ max: 64 }).optional(),
    channel: channelCode.optional(),
    status: batchStatus.optional(),
    customerId: idOf.optional(),
    ...dateRange.shape,
  }),
  response: paged(batchRow),
});

export const search = defineCall({
  path: 'order/batch/search',
  summary: 'Batches holding an order, waybill or batch number matching the keyword.',
  permission: 'order.batchList',
  request: paging.extend({ keyword: text({ min: 1, max: 64 }) }),
  response: paged(batchRow),
});

export const remove = defineCall({
  path: 'order/batch/delete',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Delete a batch with its orders; refused once any order has moved past created.',
  permission: 'order.batchList',
  request: batchId,
  response: nothing,
});

export const downloadExcel = defineCall({
  path: 'order/batch/download/excel',
  answers: [ErrorCode.NOT_FOUND],
  summary: "A batch's orders as a workbook.",
  permission: 'order.batchList',
  kind: 'blob',
  timeout: 0,
  request: batchId.extend(progressField),
  response: nothing,
});

export const downloadPeriod = z.enum(['lastWeek', 'lastMonth', 'lastThreeMonths']);
export const downloadExcelByTime = defineCall({
  path: 'order/batch/download/excelByTime',
  summary: 'The orders of all batches created in the period, as a workbook.',
  permission: 'order.batchList',
  kind: 'blob',
  timeout: 0,
  request: z.object({ period: downloadPeriod, ...progressField }),
  response: nothing,
});

const template = (_kind: TemplateKind, path: string, summary: string) =>
  defineCall({ path, summary, kind: 'blob', timeout: 0, request: z.object({}).strict(), response: nothing });

export const downloadOrder = template('order', 'download/order', 'Order template (channel chosen on the page).');
export const downloadImportOrder = template('import', 'download/importOrder', 'Japan parcel import template (boxes).');
export const downloadImportOrderBoxC = template(
  'importBoxC',
  'download/importOrderBoxC',
  'Japan box-C import template.',
);
export const downloadUsaBoxC = template('usaBoxC', 'download/usaBoxC', 'USA box-C import template.');
export const downloadUsaDomestic = template('usaDomestic', 'download/usaDomestic', 'US domestic template.');
export const downloadAu = template('au', 'download/au', 'Australia parcel template.');
export const downloadUk = template('uk', 'download/uk', 'UK parcel template.');
export const downloadPh = template('ph', 'download/ph', 'Philippines parcel template.');
export const downloadTh = template('th', 'download/th', 'Thailand parcel template.');
export const downloadSg = template('sg', 'download/sg', 'Singapore parcel template.');
export const downloadUsa = template('usa', 'download/usa', 'USA parcel template.');
export const downloadEms = template('ems', 'download/ems', 'EMS template.');
export const downloadWaybillNumber = template(
  'waybillNumber',
  'download/waybillNumber',
  'Waybill / order-number template.',
);

/** Template downloads (blobs): one per kind the spec names. */
export const templates = {
  order: downloadOrder,
  import: downloadImportOrder,
  importBoxC: downloadImportOrderBoxC,
  usaBoxC: downloadUsaBoxC,
  usaDomestic: downloadUsaDomestic,
  au: downloadAu,
  uk: downloadUk,
  ph: downloadPh,
  th: downloadTh,
  sg: downloadSg,
  usa: downloadUsa,
  ems: downloadEms,
  waybillNumber: downloadWaybillNumber,
} as const satisfies Record<TemplateKind, unknown>;

/** Which upload call a template kind goes through, and its channel when fixed. */
export const uploadOf: Record<Exclude<TemplateKind, 'waybillNumber'>, { call: string; channel?: string }> = {
  order: { call: create.path },
  import: { call: createImport.path, channel: 'JP' },
  sg: { call: createImport.path, channel: 'SG' },
  au: { call: createImport.path, channel: 'AU' },
  uk: { call: createImport.path, channel: 'UK' },
  ph: { call: createImport.path, channel: 'PH' },
  th: { call: createImport.path, channel: 'TH' },
  usa: { call: createImport.path, channel: 'USA' },
  usaDomestic: { call: createImport.path, channel: 'USD' },
  importBoxC: { call: createImportByBoxC.path, channel: 'JP' },
  usaBoxC: { call: createUsaBoxcImport.path, channel: 'USA' },
  ems: { call: createEmsImport.path, channel: 'EMS' },
};
