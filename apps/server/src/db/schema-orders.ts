import type { Generated } from 'kysely';

type Time = string;
type Flag = number;

/** Tables of orders: batches, orders, their items, tracking, ID cards and the waybill numbers they draw. */
export interface NumberSegmentsTable {
  id: Generated<number>;
  channel_code: string;
  customer_id: number | null;
  name: string;
  prefix: string;
  suffix: Generated<string>;
  scheme: string;
  next_seq: number;
  last_seq: number;
  /** Where the segment's range begins (migration 2026-11-24T1400): overlap checks use it. */
  first_seq: Generated<number>;
}
/**
 * A waybill range reserved for a batch commit (`batch_id`), or returned by one that never landed
 * (`batch_id` null: handed out again first). Migration 2026-11-27T0150; domain/waybills.ts.
 */
export interface WaybillReservationsTable {
  id: Generated<number>;
  segment_id: number;
  first_seq: number;
  last_seq: number;
  batch_id: number | null;
}
export interface BatchesTable {
  id: Generated<number>;
  batch_no: string;
  customer_id: number;
  channel_code: string;
  template_kind: string;
  export_nomination_id: number | null;
  clearance_company_code: string | null;
  file_id: number | null;
  error_file_id: number | null;
  status: string;
  progress: Generated<number>;
  total_rows: Generated<number>;
  valid_rows: Generated<number>;
  invalid_rows: Generated<number>;
  confirm_rows: Generated<number>;
  order_count: Generated<number>;
  receive_status: Generated<string>;
  error_message: string | null;
  created_by: number;
  created_at: Time;
  updated_at: Time;
  /** JSON of the import preview (migration 2026-11-21T1500-batches). */
  preview: string | null;
  heartbeat_at: Time | null;
  /** Storage key of the parsed orders awaiting confirmation (migration 2026-11-23T0530). */
  parsed_key: string | null;
  /** When an unconfirmed preview expires (PREVIEW_TTL_MINUTES). */
  preview_until: Time | null;
}
export interface OrdersTable {
  id: Generated<number>;
  /** Bumped by the database on every update of the row; edit forms save against it (migration 2026-11-27T0460). */
  version: Generated<number>;
  customer_id: number;
  batch_id: number | null;
  channel_code: string;
  order_no: string;
  waybill_no: string | null;
  split_waybill_no: string | null;
  system_no: string;
  user_ref_no: string | null;
  box_no: string | null;
  export_nomination_id: number | null;
  number_segment_id: number | null;
  order_type: Generated<string>;
  clearance_company_code: string | null;
  status: string;
  intercepted: Generated<Flag>;
  released: Generated<Flag>;
  print_count: Generated<number>;
  print_flag: Generated<Flag>;
  /** Address changed after printing: the next label carries the "B" mark (modules/label-b). */
  label_b: Generated<Flag>;
  error_reason: string | null;
  error_at: Time | null;
  abnormal_rule: string | null;
  abnormal_reason: string | null;
  abnormal_at: Time | null;
  recipient_name: string;
  recipient_id_card: string;
  recipient_phone: string;
  recipient_email: string | null;
  recipient_country: Generated<string>;
  recipient_province: string;
  recipient_city: string;
  recipient_district: string;
  recipient_street: string | null;
  recipient_address: string;
  recipient_postcode: string | null;
  sender_name: string | null;
  sender_address: string | null;
  sender_phone: string | null;
  currency: string;
  total_amount: Generated<number>;
  insured_amount: Generated<number>;
  remark: string | null;
  /** CNY decimal: the tax estimated when the order was made or last changed (migration 2026-11-24T0420). */
  tax_estimate: string | null;
  gns_updated: Generated<Flag>;
  push_s: Generated<Flag>;
  push_price: Generated<Flag>;
  whole_set: Generated<Flag>;
  created_by: number | null;
  created_at: Time;
  updated_at: Time;
  received_at: Time | null;
  shipped_at: Time | null;
  /** Gross weight in grams (migration 2026-11-24T1340-bills): priced by rate cards. */
  gross_weight_g: number | null;
  /** The weight a customer or agent declared in a pre-alert (migration 2026-11-27T0100); never charged. */
  declared_weight_g: number | null;
}
export interface OrderItemsTable {
  id: Generated<number>;
  order_id: number;
  line_no: number;
  jan: string | null;
  name: string;
  brand: string | null;
  spec: string | null;
  quantity: number;
  unit_price: number;
  currency: string;
  origin: string | null;
  hazard_code: string | null;
}
export interface TrackingEventsTable {
  id: Generated<number>;
  order_id: number;
  kind: string;
  at: Time;
  location: string | null;
  note: string | null;
  created_by: number | null;
}
export interface IdCardsTable {
  id: Generated<number>;
  customer_id: number;
  order_id: number | null;
  name: string;
  id_card: string;
  front_file_id: number | null;
  back_file_id: number | null;
  created_by: number | null;
  created_at: Time;
  updated_at: Time;
}
export interface OrderTables {
  number_segments: NumberSegmentsTable;
  waybill_reservations: WaybillReservationsTable;
  batches: BatchesTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  tracking_events: TrackingEventsTable;
  id_cards: IdCardsTable;
}
