import type { Generated } from 'kysely';

/** Table types of order review (migration 2026-11-24T0420-review-order-reviews). */
type Time = string;

export interface OrderReviewsTable {
  id: Generated<number>;
  review_no: string;
  customer_id: number;
  status: number;
  file_id: number | null;
  file_name: string;
  order_count: number;
  item_count: number;
  flagged_orders: number;
  row_error_count: number;
  /** JSON: the parse's issues [{ row, col, letter, key, params }]. */
  row_errors: string;
  remarks: string | null;
  completed_by: number | null;
  completed_at: Time | null;
  created_by: number;
  created_at: Time;
  updated_at: Time;
  /** Where the parse on the job queue stands (migration 2026-11-27T0420-order-review-jobs). */
  parse_state: Generated<ReviewParseState>;
  parse_progress: Generated<number>;
  /** A message key, translated when read; internal text never lands here. */
  parse_error: string | null;
  /** JSON: the key's params. */
  parse_error_params: string | null;
}
export type ReviewParseState = 'queued' | 'parsing' | 'done' | 'failed';
export interface OrderReviewOrdersTable {
  id: Generated<number>;
  review_id: number;
  seq: number;
  order_no: string;
  channel: string;
  recipient_name: string;
  province: string;
  city: string;
  item_count: number;
  value_cny: string | null;
  /** JSON: [{ check, code, severity, params? }]. */
  findings: string;
  finding_count: number;
}
export interface OrderReviewItemsTable {
  id: Generated<number>;
  review_id: number;
  order_id: number;
  seq: number;
  jan: string | null;
  name: string;
  quantity: number;
  unit_price: number | string;
  currency: string;
  catalogue: string;
  catalogue_item_id: number | null;
  clearance_price: string | null;
  findings: string;
}

export interface OrderReviewTables {
  order_reviews: OrderReviewsTable;
  order_review_orders: OrderReviewOrdersTable;
  order_review_items: OrderReviewItemsTable;
}
