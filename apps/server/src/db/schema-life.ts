import type { Generated } from 'kysely';

/** Table types of the order's life (migration 2026-11-24T0900-life-interceptions). */
type Time = string;

export interface OrderInterceptionsTable {
  id: Generated<number>;
  customer_id: number;
  order_id: number;
  /** Copied: the record outlives a later delete of the order. */
  order_no: string;
  /** The number kind as entered (orders.numberKind without batchNo). */
  no_type: string;
  number: string;
  reason: string;
  created_by: number | null;
  created_at: Time;
  cancel_reason: string | null;
  cancelled_by: number | null;
  cancelled_at: Time | null;
}
export interface AbnormalRulesTable {
  code: string;
  /** 0/1 */
  enabled: number;
  updated_by: number | null;
  updated_at: Time | null;
}
export interface LifeTables {
  order_interceptions: OrderInterceptionsTable;
  abnormal_rules: AbnormalRulesTable;
}
