import type { Generated } from 'kysely';

/** Table types of address-modification batches (migration 2026-11-24T1320-labelb-address-batches). */
type Time = string;

export interface LabelBBatchesTable {
  id: Generated<number>;
  batch_no: string;
  customer_id: number | null;
  /** draft | applying | done | failed */
  status: string;
  progress: Generated<number>;
  file_name: string | null;
  row_count: number;
  refused_count: number;
  changed_count: Generated<number>;
  label_b_count: Generated<number>;
  error_key: string | null;
  error_order_no: string | null;
  created_by: number;
  created_at: Time;
  updated_at: Time;
}
export interface LabelBRowsTable {
  id: Generated<number>;
  batch_id: number;
  row_no: number;
  order_no: string;
  order_id: number | null;
  /** JSON of the old address (AddressFields), null when not found. */
  old_address: string | null;
  new_name: string;
  new_phone: string;
  new_province: string;
  new_city: string;
  new_district: string;
  new_address: string;
  division_code: string | null;
  /** ok | refused | changed */
  outcome: string;
  reason_key: string | null;
  reason_field: string | null;
  warning_key: string | null;
  label_b: Generated<number>;
}
export interface LabelBTables {
  label_b_batches: LabelBBatchesTable;
  label_b_rows: LabelBRowsTable;
}
