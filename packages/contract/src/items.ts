import { z } from 'zod';
import { expectedVersion, recordVersion } from './versions.ts';
import { defineCall, empty } from './call.ts';
import { isoTime, paged, paging, ErrorCode } from './envelope.ts';
import { idOf, text, whole } from './fields.ts';
import { i18nText } from './i18n.ts';
import { pattern } from './messages.ts';
import { chinaDay } from './orders.ts';

/**
 * The item catalogue (spec §2 item pages, §3 Item, §4 item statuses, §5 images, §7 "Item
 * (all AES)"). Every call here travels in the AES envelope. Customers (or their agents)
 * declare items; operators approve, fail with a reason, or adjust the clearance data, and
 * the customer adopts or rejects each adjustment (docs/decisions.md "Item review workflow").
 */

/** Review status (spec §4): pending review, approved, review failed. */
export const itemStatus = z.enum(['pending', 'approved', 'failed']);
export type ItemStatus = z.infer<typeof itemStatus>;

/** An operator's adjustment: waiting for the customer, adopted, rejected, or superseded by a later edit of the item. */
export const adjustmentStatus = z.enum(['pending', 'adopted', 'rejected', 'superseded']);
export type AdjustmentStatus = z.infer<typeof adjustmentStatus>;

/** A decimal amount as a string with up to 2 decimals (never a float): "12", "12.5", "12.50". */
export const decimalAmount = text({ min: 1, max: 16 }).regex(pattern(/^\d{1,12}(\.\d{1,2})?$/, 'itemPrice'));
/** JAN as typed: 8 or 13 digits. The check digit (EAN-13/EAN-8, `isValidJan`) is checked by the server (422 `jan`). */
export const janText = text({ min: 8, max: 13 }).regex(pattern(/^(\d{8}|\d{13})$/, 'jan'));
/** HS tariff number: 6 to 13 digits (dots and spaces are stripped by the console before sending). */
export const tariffText = text({ min: 6, max: 13 }).regex(pattern(/^\d{6,13}$/, 'tariff'));
/** Country of origin: ISO 3166-1 alpha-2, upper case (JP, CN, US…). */
export const originCode = text({ min: 2, max: 2 }).regex(pattern(/^[A-Z]{2}$/, 'origin'));

/**
 * The clearance data of an item: what customs sees. Changing any of these on an approved
 * item sends it back to pending review; `group` is the customer's own label and does not.
 * Prices: `clearancePrice` in CNY (Chinese import clearance), `declarationPrice` in JPY
 * (Japanese export declaration), both decimal strings.
 */
const clearanceBase = {
  jan: janText,
  nameZh: text({ min: 1, max: 200 }),
  nameEn: text({ max: 200 }),
  nameJa: text({ max: 200 }),
  specs: text({ max: 200 }),
  /** Clearance essentials (申报要素): brand, model, material… as customs wants them. */
  essentials: text({ max: 1000, multiline: true }),
  partId: idOf.nullable(),
  brandId: idOf.nullable(),
  /** A leaf or inner node of `item/categories`. */
  categoryId: idOf.nullable(),
  /** When no category fits: the customer's words; the operator files it on review. */
  newCategory: text({ max: 100 }),
  /** Japanese export category code (`item/exportCategories`). */
  exportCategory: text({ max: 16 }).nullable(),
  tariff: tariffText.nullable(),
  netWeightG: whole(1, 1_000_000),
  clearancePrice: decimalAmount,
  declarationPrice: decimalAmount,
  origin: originCode,
  /** Tax code (`item/taxes`); name, unit, amount and rate come from it. */
  taxCode: text({ max: 16 }).nullable(),
  /** An image uploaded with `item/image/upload` by the same customer; null removes it. */
  imageId: idOf.nullable(),
};

export const itemClearanceFields = z.object({
  ...clearanceBase,
  nameEn: clearanceBase.nameEn.default(''),
  nameJa: clearanceBase.nameJa.default(''),
  specs: clearanceBase.specs.default(''),
  essentials: clearanceBase.essentials.default(''),
  partId: clearanceBase.partId.default(null),
  brandId: clearanceBase.brandId.default(null),
  categoryId: clearanceBase.categoryId.default(null),
  newCategory: clearanceBase.newCategory.default(''),
  exportCategory: clearanceBase.exportCategory.default(null),
  tariff: clearanceBase.tariff.default(null),
  taxCode: clearanceBase.taxCode.default(null),
  imageId: clearanceBase.imageId.default(null),
});
/** What an operator's adjustment may change: any clearance field but the JAN and the image; only those sent. */
export const adjustmentChanges = z.object(clearanceBase).omit({ jan: true, imageId: true }).partial().strict();
export type AdjustmentChanges = z.output<typeof adjustmentChanges>;
export type ItemClearanceFields = z.output<typeof itemClearanceFields>;
/** Names of the clearance fields (adjustments change a subset of these). */
export const itemClearanceKeys = Object.keys(itemClearanceFields.shape) as (keyof ItemClearanceFields)[];

export const itemInput = itemClearanceFields.extend({
  /** The customer's own grouping label; not clearance data. */
  group: text({ max: 64 }).default(''),
});
export type ItemInput = z.output<typeof itemInput>;

/** Tax data of an item, resolved from its tax code. `rate` is a decimal fraction string ("0.13"), `amount` in CNY. */
export const itemTax = z.object({
  code: z.string(),
  name: i18nText,
  unit: z.string(),
  amount: z.string(),
  rate: z.string(),
});
export type ItemTax = z.infer<typeof itemTax>;

const named = z.object({ id: z.number().int(), name: i18nText });

/** One item as lists and details show it. */
export const itemRow = z.object({
  id: z.number().int(),
  /** What the edit form sends back as `version` (issue 28 #3). */
  version: recordVersion,
  customerId: z.number().int(),
  customerCode: z.string(),
  jan: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  nameJa: z.string(),
  specs: z.string(),
  essentials: z.string(),
  part: named.nullable(),
  brand: named.nullable(),
  category: named.extend({ path: z.array(i18nText) }).nullable(),
  newCategory: z.string(),
  exportCategory: z.object({ code: z.string(), name: i18nText }).nullable(),
  group: z.string(),
  tariff: z.string().nullable(),
  netWeightG: z.number().int(),
  clearancePrice: z.string(),
  declarationPrice: z.string(),
  origin: z.string(),
  tax: itemTax.nullable(),
  /** Fetch with `item/image`; null when the item has none. */
  imageId: z.number().int().nullable(),
  status: itemStatus,
  /** Why review failed (the operator's words); null unless failed. */
  reason: z.string().nullable(),
  /** Adjustments waiting for the customer. */
  pendingAdjustments: z.number().int(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type ItemRow = z.infer<typeof itemRow>;

/** One entry of an item's history (item info shows all of it, oldest first). */
export const itemEventKind = z.enum([
  'created',
  'updated',
  'resubmitted',
  'approved',
  'failed',
  'adjusted',
  'adopted',
  'rejected',
]);
export const itemEvent = z.object({
  id: z.number().int(),
  kind: itemEventKind,
  /** Who did it (display name) and their role. */
  by: z.string(),
  byRole: z.string(),
  at: isoTime,
  /** The reason of a failure or rejection, or the operator's note on an adjustment. */
  note: z.string().nullable(),
  /** Status after the event. */
  status: itemStatus,
  /** Clearance fields the event changed: before → after. */
  changes: z.array(z.object({ field: z.string(), before: z.unknown(), after: z.unknown() })),
});
export type ItemEvent = z.infer<typeof itemEvent>;

/** An operator's adjustment of an item's clearance data. */
export const adjustmentRow = z.object({
  id: z.number().int(),
  itemId: z.number().int(),
  customerId: z.number().int(),
  customerCode: z.string(),
  jan: z.string(),
  itemName: z.string(),
  status: adjustmentStatus,
  /** Only the fields the operator changed: before (at adjustment time) and after. */
  changes: z.array(z.object({ field: z.string(), before: z.unknown(), after: z.unknown() })),
  note: z.string().nullable(),
  adjustedBy: z.string(),
  adjustedAt: isoTime,
  /** Who adopted or rejected it, when, and why (a rejection's reason). */
  decidedBy: z.string().nullable(),
  decidedAt: isoTime.nullable(),
  decisionNote: z.string().nullable(),
});
export type AdjustmentRow = z.infer<typeof adjustmentRow>;

export const itemDetail = itemRow.extend({
  history: z.array(itemEvent),
  adjustments: z.array(adjustmentRow),
});
export type ItemDetail = z.infer<typeof itemDetail>;

// ---------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------

export const itemSort = z.enum(['createdAt', 'updatedAt', 'jan', 'nameZh', 'status']);
/** Server-side filters of the item list; the Failed To Pass Item List is `status: 'failed'`. */
export const itemFilter = z.object({
  status: itemStatus.optional(),
  jan: text({ min: 1, max: 13 }).optional(),
  /** Matches any of the three names (contains). */
  name: text({ min: 1, max: 100 }).optional(),
  brandId: idOf.optional(),
  /** Matches the category and everything under it. */
  categoryId: idOf.optional(),
  partId: idOf.optional(),
  group: text({ min: 1, max: 64 }).optional(),
  customerId: idOf.optional(),
  /** Only items with adjustments waiting for the customer. */
  hasPendingAdjustment: z.boolean().optional(),
  /** Creation day range, China calendar days (UTC+8), inclusive. */
  dateFrom: chinaDay.optional(),
  dateTo: chinaDay.optional(),
});
export const itemListRequest = paging
  .extend(itemFilter.shape)
  .extend({ sort: itemSort.default('createdAt') })
  .strict();
export type ItemListRequest = z.output<typeof itemListRequest>;

export const items = defineCall({
  path: 'items',
  summary: 'Item List: filters (status, JAN, any name, brand, category, part, group, dates), sort, paging.',
  aes: true,
  permission: 'item.list',
  request: itemListRequest,
  response: paged(itemRow),
});

export const item = defineCall({
  path: 'item',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'One item with its whole history and every adjustment.',
  aes: true,
  permission: 'item.info',
  request: z.object({ id: idOf }).strict(),
  response: itemDetail,
});

export const createItem = defineCall({
  path: 'item/create',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'Declare an item (pending review). JAN checked (EAN-13/EAN-8) and unique per customer.',
  aes: true,
  permission: 'item.create',
  request: itemInput.extend({ customerId: idOf.optional() }).strict(),
  response: itemRow,
});

export const updateItem = defineCall({
  path: 'item/update',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'Change an item. A failed item is resubmitted (pending); an approved one goes back to pending when clearance data changes.',
  aes: true,
  permission: 'item.update',
  /** `version`: the one the form was loaded from; a stale one is a 409 `recordChanged` with the item now. */
  request: itemInput.extend({ id: idOf, version: expectedVersion }).strict(),
  response: itemRow,
});

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

// ---------------------------------------------------------------------------
// Images
// ---------------------------------------------------------------------------

/** Item images: jpg/jpeg or png by content, at most this size and these dimensions. */
export const ITEM_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const ITEM_IMAGE_MAX_SIDE = 8000;
export const ITEM_IMAGE_MIN_SIDE = 16;

/**
 * Upload one image (multipart, one file in any field). The other form fields travel AES-sealed
 * like every call here: the form carries `data` and `iv` (the sealed `{ customerId? }`) and the
 * request the `aes: 1` header; the file bytes themselves are plain (TLS protects them; sealing
 * them would mean base64 in a JSON body past the 1 MB body limit). Answers the image id to put
 * in `imageId` of `item/create` / `item/update`.
 */
export const uploadItemImage = defineCall({
  path: 'item/image/upload',
  summary: 'Upload an item image (jpg/png checked by content, dimensions and size); answers its id.',
  aes: true,
  permission: 'item.list',
  kind: 'multipart',
  timeout: 0,
  request: z.object({ customerId: idOf.optional() }).strict(),
  response: z.object({
    imageId: z.number().int(),
    mime: z.enum(['image/jpeg', 'image/png']),
    width: z.number().int(),
    height: z.number().int(),
    size: z.number().int(),
  }),
});

/** The image bytes (request AES-sealed, answer the file). Only the owner, its agent and operators. */
export const itemImage = defineCall({
  path: 'item/image',
  answers: [ErrorCode.NOT_FOUND],
  summary: 'An item image (only its customer, that customer’s agent and operators).',
  aes: true,
  permission: 'item.list',
  kind: 'blob',
  file: 'image',
  request: z.object({ imageId: idOf }).strict(),
  response: z.null(),
});

// ---------------------------------------------------------------------------
// Reference data for the item form
// ---------------------------------------------------------------------------

export const parts = defineCall({
  path: 'item/parts',
  summary: 'Parts (what part of a product the item is) for the item form.',
  aes: true,
  permission: 'item.list',
  request: empty,
  response: z.array(named),
});

export const brands = defineCall({
  path: 'item/brands',
  summary: 'Brands for the item form.',
  aes: true,
  permission: 'item.list',
  request: z.object({ keyword: text({ max: 64 }).optional() }).strict(),
  response: z.array(named),
});

export interface CategoryNode {
  id: number;
  name: { zh: string; en: string };
  children: CategoryNode[];
}
export const categoryNode: z.ZodType<CategoryNode> = z.object({
  id: z.number().int(),
  name: i18nText,
  get children() {
    return z.array(categoryNode);
  },
});

export const categories = defineCall({
  path: 'item/categories',
  summary: 'Item categories as a tree.',
  aes: true,
  permission: 'item.list',
  request: empty,
  response: z.array(categoryNode),
});

export const exportCategories = defineCall({
  path: 'item/exportCategories',
  summary: 'The Japanese export categories a declaration uses.',
  aes: true,
  permission: 'item.list',
  request: empty,
  response: z.array(z.object({ code: z.string(), name: i18nText })),
});

export const taxes = defineCall({
  path: 'item/taxes',
  summary: 'Tax codes with name, unit, amount and rate.',
  aes: true,
  permission: 'item.list',
  request: empty,
  response: z.array(itemTax),
});

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
