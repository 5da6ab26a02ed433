import type { orders } from '@console/contract';

type OrderRow = orders.OrderRow;
import { maskName, maskPhone } from '../../lib/mask.ts';
import type { OrderListRow } from './orders.repository.ts';

/** A database row → the contract's list row, with personal data masked. */
export function presentOrderRow(r: OrderListRow): OrderRow {
  return {
    id: r.id,
    orderNo: r.order_no,
    waybillNo: r.waybill_no,
    channel: r.channel_code as OrderRow['channel'],
    customerId: r.customer_id,
    customerCode: r.customer_code,
    batchNo: r.batch_no,
    status: r.status as OrderRow['status'],
    recipientName: maskName(r.recipient_name),
    recipientPhone: maskPhone(r.recipient_phone),
    recipientProvince: r.recipient_province,
    recipientCity: r.recipient_city,
    printCount: r.print_count,
    printFlag: r.print_flag === 1,
    intercepted: r.intercepted === 1,
    released: r.released === 1,
    errorReason: r.error_reason,
    abnormalReason: r.abnormal_reason,
    createdAt: r.created_at,
  };
}
