import { z } from 'zod';
import { defineCall } from './call.ts';
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
  summary:
    'Waybill labels (100 × 150 mm PDF) of selected orders, one page each; counts as a print (created → printed, print count + 1, an event naming the printer). Refused whole (409, each order and why) when one is intercepted, cancelled, an error order, shipped or not found.',
  permission: 'order.list',
  request: labelRequest,
  response: z.null(),
  kind: 'blob',
  timeout: 0,
});

export const downloadLabelProduct = defineCall({
  path: 'order/download/labelProduct',
  summary:
    "Product labels (the picking list) of selected orders: each item's JAN as an EAN barcode, name and quantity, five items a page. Not a print of the waybill: counts nothing.",
  permission: 'order.list',
  request: labelRequest.omit({ printer: true }),
  response: z.null(),
  kind: 'blob',
  timeout: 0,
});
