import type { Generated } from 'kysely';

/** Table types of inbound storage and outbound shipments (migration 2026-11-24T0930-storage-orders). */
type Time = string;

export interface StorageOrdersTable {
  id: Generated<number>;
  storage_no: string;
  /** Null: an operator's entry of any customers' parcels. */
  customer_id: number | null;
  /** entry | excel */
  method: string;
  /** pickup | selfSend | counter */
  origin: string;
  line_count: number;
  received_count: number;
  refused_count: number;
  file_name: string | null;
  /** 1: a customer's or agent's entry, a pre-alert that received nothing (migration 2026-11-27T0100). */
  pre_alert: Generated<number>;
  created_by: number;
  created_at: Time;
  updated_at: Time;
}
export interface StorageOrderLinesTable {
  id: Generated<number>;
  storage_order_id: number;
  code: string;
  order_id: number | null;
  /** The contract's StorageOutcome. */
  outcome: string;
  /** Message key of the reason (takes {orderNo} and {code}). */
  message_key: string;
  /** The gross weight (g) entered with this scan; null when none was (migration 2026-11-24T1400). */
  gross_weight_g: number | null;
  created_at: Time;
}
export interface ShipmentsTable {
  id: Generated<number>;
  shipment_no: string;
  /** single | batch */
  method: string;
  order_count: number;
  created_by: number;
  created_at: Time;
  updated_at: Time;
}
export interface ShipmentOrdersTable {
  shipment_id: number;
  order_id: number;
  created_at: Time;
}

export interface StorageTables {
  storage_orders: StorageOrdersTable;
  storage_order_lines: StorageOrderLinesTable;
  shipments: ShipmentsTable;
  shipment_orders: ShipmentOrdersTable;
}
