import { z } from 'zod';
import { defineCall } from './call.ts';
import { isoTime, ErrorCode } from './envelope.ts';
import { idOf } from './fields.ts';

// ---------------------------------------------------------------------------
// Bulk import from a workbook (template → upload and preview → confirm)
// ---------------------------------------------------------------------------

/**
 * An item import (docs/decisions.md "Item import"): `preview` after the upload (every row checked
 * with item/create's rules; the failed rows are in the error workbook), `committing` while the
 * valid rows are written in one transaction, then `done`; `failed` when the commit was refused
 * (nothing written); `expired` when the preview was not confirmed in time.
 */
export const itemImportStatus = z.enum(['preview', 'committing', 'done', 'failed', 'expired']);
export type ItemImportStatus = z.infer<typeof itemImportStatus>;

/** Rows one workbook may hold (an operator onboarding a customer's catalogue). */
export const ITEM_IMPORT_MAX_ROWS = 20_000;

export const itemImportIssue = z.object({
  /** 1-based spreadsheet row. */
  row: z.number().int(),
  /** Column letter and title, or null for a row-level problem. */
  column: z.string().nullable(),
  columnTitle: z.string().nullable(),
  message: z.string(),
});

export const itemImport = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerCode: z.string(),
  fileName: z.string(),
  status: itemImportStatus,
  /** 0–100 while committing. */
  progress: z.number().int(),
  totalRows: z.number().int(),
  validRows: z.number().int(),
  invalidRows: z.number().int(),
  /** Items made by the commit. */
  createdItems: z.number().int(),
  /** Until then the preview can be confirmed; null once it is not a preview. */
  previewUntil: isoTime.nullable(),
  errorMessage: z.string().nullable(),
  hasErrorWorkbook: z.boolean(),
  /** The first problems, in row order (the error workbook holds every failed row). */
  errors: z.array(itemImportIssue),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type ItemImport = z.infer<typeof itemImport>;

export const itemImportTemplate = defineCall({
  path: 'item/import/template',
  summary: 'The item import template: every item field, headers in Chinese and English, drop-downs, notes.',
  aes: true,
  permission: 'item.create',
  kind: 'blob',
  timeout: 0,
  request: z.object({}).strict(),
  response: z.null(),
});

/**
 * Upload a filled template (multipart, one .xlsx; the fields travel AES-sealed as `data`/`iv`
 * beside the plain file, like `item/image/upload`). Every row is checked; the answer is the
 * preview. Agents and operators name the customer; a customer imports for itself.
 */
export const uploadItemImport = defineCall({
  path: 'item/import/upload',
  summary: 'Upload an item workbook: every row checked like item/create; answers the preview (valid and failed rows).',
  aes: true,
  permission: 'item.create',
  kind: 'multipart',
  timeout: 0,
  request: z.object({ customerId: idOf.optional() }).strict(),
  response: itemImport,
});

export const itemImportProgress = defineCall({
  path: 'item/import/progress',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'An item import: status, progress (0–100), counts and the first problems.',
  aes: true,
  permission: 'item.create',
  request: z.object({ id: idOf }).strict(),
  response: itemImport,
});

export const confirmItemImport = defineCall({
  path: 'item/import/confirm',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'Import the valid rows of a preview: every one or none (one transaction); they go to review as pending. Answers at once; follow item/import/progress.',
  aes: true,
  permission: 'item.create',
  timeout: 0,
  request: z.object({ id: idOf }).strict(),
  response: itemImport,
});

export const itemImportErrors = defineCall({
  path: 'item/import/download/errors',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'The failed rows of an item import as a workbook (values only) with the reason of each.',
  aes: true,
  permission: 'item.create',
  kind: 'blob',
  timeout: 0,
  request: z.object({ id: idOf }).strict(),
  response: z.null(),
});
