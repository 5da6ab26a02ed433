import { z } from 'zod';
import { defineCall, empty } from './call.ts';
import { isoTime, paged, paging, ErrorCode } from './envelope.ts';
import { idOf, text } from './fields.ts';

// ---------------------------------------------------------------------------
// Promise letter ID cards
// ---------------------------------------------------------------------------

export const idCardRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  orderId: z.number().int().nullable(),
  orderNo: z.string().nullable(),
  name: z.string(),
  idCard: z.string(),
  hasFront: z.boolean(),
  hasBack: z.boolean(),
  createdAt: isoTime,
});
export const idCards = defineCall({
  path: 'order/idCard',
  summary: 'Promise-letter ID cards on file (masked).',
  permission: 'order.idCard',
  request: paging.extend({ keyword: text({ max: 64 }).optional() }),
  response: paged(idCardRow),
});
export const idCardUpload = defineCall({
  path: 'order/idCard/upload',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'Upload one side (jpg/png, checked by content and size) for a recipient or an order. The order is named ' +
    'by any of its numbers (`orderNo`: order, waybill, split waybill, system or reference number) or by `orderId`.',
  permission: 'order.idCard',
  request: z.object({
    side: z.enum(['front', 'back']),
    orderId: idOf.optional(),
    /** Any number of one order, as the screens show them (a batch number names many: not accepted). */
    orderNo: text({ max: 64 }).optional(),
    customerId: idOf.optional(),
    name: text({ max: 64 }).optional(),
    idCard: text({ max: 18 }).optional(),
  }),
  response: idCardRow,
  kind: 'multipart',
  timeout: 0,
});
export const idCardImage = defineCall({
  path: 'order/idCard/image',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'One side of an ID card (only its owner and operators).',
  permission: 'order.idCard',
  request: z.object({ id: idOf, side: z.enum(['front', 'back']) }),
  response: z.null(),
  kind: 'blob',
  file: 'image',
});
export const idCardTemplate = defineCall({
  path: 'order/idCard/template',
  summary: 'The bulk-mapping template: order number, waybill, name, ID number, image file names (zh/en headers).',
  permission: 'order.idCard',
  request: empty,
  response: z.null(),
  kind: 'blob',
});
/**
 * Bulk mapping by template. The upload is the filled template (.xlsx) alone, which maps
 * recipients (and orders) to ID numbers, or a .zip holding the template and the images
 * its rows name: one file, because every multipart call takes one. Every row is checked
 * first; any error answers 422 with `data` keyed `rows.<sheet row>.<column>` (or `file`)
 * and nothing is imported. When rows failed, the 422 also names the error workbook under
 * `ID_CARD_IMPORT_ERRORS_KEY` (its file id as the one entry), for `idCardImportErrors`.
 */
export const idCardImport = defineCall({
  path: 'order/idCard/import',
  summary: 'Bulk ID-card mapping: the template (.xlsx) or a .zip of it with its images; all rows or none.',
  permission: 'order.idCard',
  request: z.object({ customerId: idOf.optional() }),
  response: z.object({
    rows: z.number().int(),
    created: z.number().int(),
    updated: z.number().int(),
    images: z.number().int(),
  }),
  kind: 'multipart',
  timeout: 0,
});
/** The key of a refused `idCardImport`'s 422 data that holds its error workbook's file id. */
export const ID_CARD_IMPORT_ERRORS_KEY = 'errorWorkbook';
/**
 * The error workbook of a refused ID-card import: the customer's failed rows as uploaded,
 * an error column and the bad cells marked. Only the uploader and operators download it;
 * anyone else gets the same 404 as for a missing file.
 */
export const idCardImportErrors = defineCall({
  path: 'order/idCard/import/errors',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'The error workbook of a refused ID-card import: the failed rows, an error column, bad cells marked.',
  permission: 'order.idCard',
  request: z.object({ fileId: idOf }),
  response: z.null(),
  kind: 'blob',
  timeout: 0,
});
/** The column keys of the ID-card template, as they appear in 422 field paths. */
export const idCardImportColumn = z.enum(['orderNo', 'waybillNo', 'name', 'idCard', 'front', 'back']);
export type IdCardImportColumn = z.infer<typeof idCardImportColumn>;
