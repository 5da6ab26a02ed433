import type { ItemRecord } from './items.repository.ts';

/** The clearance fields of an item, shared by its service and its adjustments (items.adjustments.ts). */
/** Contract field → column, for the clearance fields (the ones review looks at). */
export const COLUMNS = {
  jan: 'jan',
  nameZh: 'name_zh',
  nameEn: 'name_en',
  nameJa: 'name_ja',
  specs: 'specs',
  essentials: 'essentials',
  partId: 'part_id',
  brandId: 'brand_id',
  categoryId: 'category_id',
  newCategory: 'new_category',
  exportCategory: 'export_category',
  tariff: 'tariff',
  netWeightG: 'net_weight_g',
  clearancePrice: 'clearance_price',
  declarationPrice: 'declaration_price',
  origin: 'origin',
  taxCode: 'tax_code',
  imageId: 'image_file_id',
} as const satisfies Record<string, keyof ItemRecord>;
export type ClearanceKey = keyof typeof COLUMNS;
export const CLEARANCE_KEYS = Object.keys(COLUMNS) as ClearanceKey[];
export type Change = { field: string; before: unknown; after: unknown };

export const OPERATORS = new Set(['operator', 'admin-none']);
