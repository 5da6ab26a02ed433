import type { v1 } from '@console/contract';

/**
 * An order in the v1 API's shape (contract v1.ts `V1Order`): the columns it is read from and how it
 * is presented. One place for the v1 calls' answers (modules/orders) and the webhook events' bodies
 * (domain/order-events.ts), so an order reads the same whether fetched or pushed.
 */
export const V1_ORDER_COLUMNS = [
  'o.id',
  'o.customer_id',
  'o.order_no',
  'o.waybill_no',
  'o.channel_code',
  'o.status',
  'o.intercepted',
  'o.user_ref_no',
  'o.recipient_name',
  'o.created_at',
  'o.updated_at',
] as const;

export interface V1OrderColumns {
  id: number;
  customer_id: number;
  order_no: string;
  waybill_no: string | null;
  channel_code: string;
  status: string;
  intercepted: number;
  user_ref_no: string | null;
  recipient_name: string;
  created_at: string;
  updated_at: string;
}

export const presentV1Order = (r: V1OrderColumns): v1.V1Order => ({
  id: r.id,
  customerId: r.customer_id,
  orderNo: r.order_no,
  waybillNo: r.waybill_no,
  channel: r.channel_code as v1.V1Order['channel'],
  status: r.status as v1.V1Order['status'],
  intercepted: r.intercepted === 1,
  userRefNo: r.user_ref_no,
  recipientName: r.recipient_name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
