import { z } from 'zod';
import { recordVersion } from './versions.ts';
import { isoTime } from './envelope.ts';
import { idOf, text, whole } from './fields.ts';
import { i18nText } from './i18n.ts';
import { pattern } from './messages.ts';

/** The item catalogue's records: statuses, clearance fields, rows, history and adjustments (items.ts). */

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

export const named = z.object({ id: z.number().int(), name: i18nText });

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
