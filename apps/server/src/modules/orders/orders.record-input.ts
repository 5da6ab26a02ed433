import type { OrderInput } from '../../domain/order-input.ts';
import type { OrderRecord, OrdersRepository } from './orders.repository.ts';

/** An order as it is in the database, in the domain's input shape (for re-validation). */
export function orderInputOf(
  o: NonNullable<OrderRecord>,
  items: Awaited<ReturnType<OrdersRepository['items']>>,
): OrderInput {
  return {
    customerId: o.customer_id,
    channel: o.channel_code as OrderInput['channel'],
    orderNo: o.order_no,
    boxNo: o.box_no,
    userRefNo: o.user_ref_no,
    orderType: o.order_type,
    exportNominationId: o.export_nomination_id,
    clearanceCompanyCode: o.clearance_company_code,
    recipient: {
      name: o.recipient_name,
      idCard: o.recipient_id_card,
      phone: o.recipient_phone,
      email: o.recipient_email,
      province: o.recipient_province,
      city: o.recipient_city,
      district: o.recipient_district,
      street: o.recipient_street,
      address: o.recipient_address,
      postcode: o.recipient_postcode,
    },
    sender: { name: o.sender_name, address: o.sender_address, phone: o.sender_phone },
    items: items.map((i) => ({
      jan: i.jan,
      name: i.name,
      brand: i.brand,
      spec: i.spec,
      quantity: i.quantity,
      unitPrice: Number(i.unit_price),
      currency: i.currency,
      origin: i.origin,
      hazardCode: i.hazard_code,
    })),
    insuredAmount: Number(o.insured_amount),
    remark: o.remark,
  };
}
