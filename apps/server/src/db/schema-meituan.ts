import type { Generated } from 'kysely';

/** Table types of lane meituan (migration 2026-11-24T1330-meituan-self-sends-recipients). */
type Time = string;

export interface RecipientsTable {
  id: Generated<number>;
  customer_id: number;
  name: string;
  id_card: string;
  phone: string;
  email: string | null;
  province: string;
  city: string;
  district: string;
  street: string | null;
  address: string;
  postcode: string | null;
  created_at: Time;
  updated_at: Time;
}

export interface SelfSendsTable {
  id: Generated<number>;
  customer_id: number;
  express_company: string;
  express_name: string | null;
  /** YYYY-MM-DD (the day the customer sends, its calendar). */
  send_date: string;
  expected_pieces: number;
  remark: string | null;
  created_by: number;
  created_at: Time;
}

export interface SelfSendParcelsTable {
  id: Generated<number>;
  self_send_id: number;
  customer_id: number;
  /** Trimmed, upper case (as storage scans codes). */
  tracking_no: string;
  arrived_at: Time | null;
  storage_order_id: number | null;
}

export interface MeituanOrdersTable {
  id: Generated<number>;
  customer_id: number;
  system_no: string;
  meituan_no: string;
  express_no: string;
  order_ref: string;
  receiver_name: string;
  receiver_address: string;
  receiver_phone: string;
  /** 0 pending operation, 1 completed. */
  status: number;
  operation_location: string;
  batch_number: string;
  item_count: number;
  total_fen: number | string | bigint;
  created_by: number;
  created_at: Time;
  completed_at: Time | null;
  completed_by: number | null;
}

export interface MeituanOrderItemsTable {
  id: Generated<number>;
  meituan_order_id: number;
  barcode: string;
  name: string;
  specs: string | null;
  price_fen: number | string | bigint;
  count: number;
}

export interface MeituanTables {
  recipients: RecipientsTable;
  self_sends: SelfSendsTable;
  self_send_parcels: SelfSendParcelsTable;
  meituan_orders: MeituanOrdersTable;
  meituan_order_items: MeituanOrderItemsTable;
}
