import { z } from 'zod';
import { defineCall } from './call.ts';
import { ErrorCode } from './envelope.ts';
import { progressField } from './export-jobs.ts';
import { idOf, text } from './fields.ts';

/**
 * Label PDFs (issue 14, spec §7 `order/download/labelA`, `order/download/labelProduct`): label
 * A is the 100 × 150 mm waybill label, the product label the picking list with each item's JAN
 * as a barcode. Selected orders → one PDF, built off the event loop with download progress.
 */

/** At most this many orders in one downloaded PDF; more go through the print job. */
export const LABEL_DOWNLOAD_MAX = 500;

const labelRequest = z.object({
  ids: z.array(idOf).min(1).max(LABEL_DOWNLOAD_MAX),
  /** The printer the console will send the PDF to, recorded on each order's print event. */
  printer: text({ max: 100 }).optional(),
  ...progressField,
});

export const downloadLabelA = defineCall({
  path: 'order/download/labelA',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'Waybill labels (100 × 150 mm PDF) of selected orders, one page each; counts as a print (created → printed, print count + 1, an event naming the printer). Refused whole (409, each order and why) when one is intercepted, cancelled, an error order, shipped or not found.',
  permission: 'order.list',
  request: labelRequest,
  response: z.null(),
  kind: 'blob',
  file: 'pdf',
  timeout: 0,
});

export const downloadLabelProduct = defineCall({
  path: 'order/download/labelProduct',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    "Product labels (the picking list) of selected orders: each item's JAN as an EAN barcode, name and quantity, five items a page. Not a print of the waybill: counts nothing.",
  permission: 'order.list',
  request: labelRequest.omit({ printer: true }),
  response: z.null(),
  kind: 'blob',
  file: 'pdf',
  timeout: 0,
});

/** Orders in one print job at most. */
export const PRINT_JOB_MAX = 5000;

export const printLabelA = defineCall({
  path: 'order/printLabelA',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'Waybill labels of many orders as a job: answers at once with its id; the job prints each order that can be printed (counted through the order life) and lists the others with their reason, then draws one PDF. Progress and result: order/printLabelAResult.',
  permission: 'order.list',
  request: z.object({
    ids: z.array(idOf).min(1).max(PRINT_JOB_MAX),
    printer: text({ max: 100 }).optional(),
  }),
  response: z.object({ jobId: z.number().int() }),
  timeout: 0,
});

export const printJobStatus = z.enum(['running', 'done', 'failed']);
export const printJob = z.object({
  jobId: z.number().int(),
  status: printJobStatus,
  /** Orders asked for. */
  total: z.number().int(),
  /** Orders printed (counted) and drawn into the PDF so far. */
  printed: z.number().int(),
  drawn: z.number().int(),
  refused: z.array(z.object({ orderNo: z.string().nullable(), reason: z.string() })),
  /** The PDF, once done: downloaded with file/downloadSteam. */
  fileId: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type PrintJob = z.infer<typeof printJob>;

export const printLabelAResult = defineCall({
  path: 'order/printLabelAResult',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    "A print job's state (its starter's only): running with labels drawn of those printed, done with the PDF's file id, or failed; the orders refused and why.",
  permission: 'order.list',
  request: z.object({ jobId: idOf }),
  response: printJob,
});
