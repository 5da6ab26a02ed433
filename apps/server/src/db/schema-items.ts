import type { Generated } from 'kysely';

/** Table types of the item catalogue (migration 2026-11-24T0400-items-catalogue). */
type Time = string;

export interface ItemPartsTable {
  id: Generated<number>;
  name_zh: string;
  name_en: string;
}
export interface ItemCategoriesTable {
  id: Generated<number>;
  parent_id: number | null;
  name_zh: string;
  name_en: string;
  path: string;
}
export interface ItemExportCategoriesTable {
  code: string;
  name_zh: string;
  name_en: string;
}
export interface ItemTaxesTable {
  code: string;
  name_zh: string;
  name_en: string;
  unit_zh: string;
  unit_en: string;
  amount: string;
  rate: string;
}
export interface ItemsTable {
  id: Generated<number>;
  /** Bumped by the database on every update of the row; edit forms save against it (migration 2026-11-27T0460). */
  version: Generated<number>;
  customer_id: number;
  jan: string;
  name_zh: string;
  name_en: string;
  name_ja: string;
  specs: string;
  essentials: string;
  part_id: number | null;
  brand_id: number | null;
  category_id: number | null;
  new_category: string;
  export_category: string | null;
  group_name: string;
  tariff: string | null;
  net_weight_g: number;
  clearance_price: string;
  declaration_price: string;
  origin: string;
  tax_code: string | null;
  image_file_id: number | null;
  status: string;
  reason: string | null;
  created_by: number;
  created_at: Time;
  updated_at: Time;
}
export interface ItemEventsTable {
  id: Generated<number>;
  item_id: number;
  kind: string;
  user_id: number;
  note: string | null;
  status: string;
  /** JSON: [{ field, before, after }]. */
  changes: string;
  at: Time;
}
export interface ItemAdjustmentsTable {
  id: Generated<number>;
  item_id: number;
  customer_id: number;
  status: string;
  /** JSON: [{ field, before, after }]. */
  changes: string;
  note: string | null;
  adjusted_by: number;
  adjusted_at: Time;
  decided_by: number | null;
  decided_at: Time | null;
  decision_note: string | null;
}

export interface ItemImportsTable {
  id: Generated<number>;
  customer_id: number;
  created_by: number;
  file_name: string;
  status: string;
  progress: Generated<number>;
  total_rows: Generated<number>;
  valid_rows: Generated<number>;
  invalid_rows: Generated<number>;
  created_items: Generated<number>;
  /** JSON: the first problems as message keys ([{ row, col, key, params }]). */
  errors: Generated<string>;
  valid_key: string | null;
  error_file_id: number | null;
  error_message: string | null;
  preview_until: Time | null;
  created_at: Time;
  updated_at: Time;
}

export interface ItemTables {
  item_parts: ItemPartsTable;
  item_brands: ItemPartsTable;
  item_categories: ItemCategoriesTable;
  item_export_categories: ItemExportCategoriesTable;
  item_taxes: ItemTaxesTable;
  items: ItemsTable;
  item_events: ItemEventsTable;
  item_adjustments: ItemAdjustmentsTable;
  item_imports: ItemImportsTable;
}
