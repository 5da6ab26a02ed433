import type { ApiLanguage, orders } from '@console/contract';
import type { Selectable } from 'kysely';
import type { OrderItemsTable } from '../../db/schema-orders.ts';
import { maskName, maskPhone } from '../../lib/mask.ts';
import { readReasons, reasonsText, storedReasonText } from '../../lib/reasons.ts';
import { fenText, fromMinor, toMinor as parseMinor, type TaxEstimate } from '../../domain/pricing/index.ts';
import type { OrderListRow } from './orders.list.repository.ts';
import type { OrderRecord } from './orders.repository.ts';

type OrderRow = orders.OrderRow;
type OrderItem = orders.OrderItem;

/** Decimal string → integer minor units, or null when it is not a decimal or has more places than the currency. */
export function toMinor(s: string, decimals: number): number | null {
  try {
    return Number(parseMinor(s, decimals));
  } catch {
    return null;
  }
}

/**
 * Why an order is abnormal, in the caller's language. Rows written before reasons were
 * stored as codes hold a bilingual sentence; their rule codes name the reason instead.
 */
export function abnormalReasonText(lang: ApiLanguage, rule: string | null, stored: string | null): string | null {
  if (readReasons(stored)) return storedReasonText(lang, stored);
  const rules = (rule ?? '').split(',').filter(Boolean);
  if (rules.length)
    return reasonsText(
      lang,
      rules.map((code) => ({ code: `rule_${code}` })),
    );
  return stored;
}

/** A database row → the contract's list row, with personal data masked and reasons in the caller's language. */
export function presentOrderRow(r: OrderListRow, lang: ApiLanguage): OrderRow {
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
    errorReason: storedReasonText(lang, r.error_reason),
    abnormalReason: abnormalReasonText(lang, r.abnormal_rule, r.abnormal_reason),
    createdAt: r.created_at,
  };
}

/** An item as its table holds it (the order it belongs to is already known). */
type ItemRow = Omit<Selectable<OrderItemsTable>, 'order_id'>;

export function presentItem(r: ItemRow, decimals: ReadonlyMap<string, number>): OrderItem {
  return {
    id: r.id,
    lineNo: r.line_no,
    jan: r.jan,
    name: r.name,
    brand: r.brand,
    spec: r.spec,
    quantity: r.quantity,
    unitPrice: fromMinor(r.unit_price, decimals.get(r.currency) ?? 2),
    currency: r.currency as OrderItem['currency'],
    origin: r.origin,
    hazardCode: r.hazard_code,
  };
}

export function presentDetail(
  o: NonNullable<OrderRecord>,
  items: ItemRow[],
  events: { kind: string; at: string; location: string | null; note: string | null; by: string | null }[],
  decimals: ReadonlyMap<string, number>,
  locked: string | null,
  lang: ApiLanguage,
  tax: { marks: (orders.CatalogueMark | null)[]; estimate: TaxEstimate | null },
): orders.OrderDetail {
  const d = decimals.get(o.currency) ?? 2;
  return {
    id: o.id,
    version: o.version,
    customerId: o.customer_id,
    customerCode: o.customer_code,
    channel: o.channel_code as OrderRow['channel'],
    exportNominationId: o.export_nomination_id,
    numberSegmentId: o.number_segment_id,
    orderType: o.order_type,
    clearanceCompany: o.clearance_company_code,
    orderNo: o.order_no,
    splitWaybillNo: o.split_waybill_no,
    waybillNo: o.waybill_no,
    systemNo: o.system_no,
    userRefNo: o.user_ref_no,
    batchId: o.batch_id,
    batchNo: o.batch_no,
    boxNo: o.box_no,
    status: o.status as OrderRow['status'],
    receiveStatus: (o.batch_receive_status as orders.OrderDetail['receiveStatus']) ?? null,
    recipient: {
      name: o.recipient_name,
      idCard: o.recipient_id_card,
      phone: o.recipient_phone,
      email: o.recipient_email,
      country: o.recipient_country,
      province: o.recipient_province,
      city: o.recipient_city,
      district: o.recipient_district,
      street: o.recipient_street,
      address: o.recipient_address,
      postcode: o.recipient_postcode,
    },
    sender: { name: o.sender_name, address: o.sender_address, phone: o.sender_phone },
    currency: o.currency as orders.OrderDetail['currency'],
    totalAmount: fromMinor(o.total_amount, d),
    insuredAmount: fromMinor(o.insured_amount, d),
    remark: o.remark,
    printCount: o.print_count,
    printFlag: o.print_flag === 1,
    intercepted: o.intercepted === 1,
    released: o.released === 1,
    gnsUpdated: o.gns_updated === 1,
    pushS: o.push_s === 1,
    pushPrice: o.push_price === 1,
    wholeSet: o.whole_set === 1,
    errorReason: storedReasonText(lang, o.error_reason),
    errorAt: o.error_at,
    abnormalRule: o.abnormal_rule,
    abnormalReason: abnormalReasonText(lang, o.abnormal_rule, o.abnormal_reason),
    abnormalAt: o.abnormal_at,
    createdAt: o.created_at,
    updatedAt: o.updated_at,
    receivedAt: o.received_at,
    shippedAt: o.shipped_at,
    locked,
    items: items.map((i, k) => ({ ...presentItem(i, decimals), catalogueStatus: tax.marks[k] ?? null })),
    events,
    taxEstimate: presentTax(tax.estimate),
  };
}

/** An order's tax estimate as the calls show it (yuan text). */
export function presentTax(e: TaxEstimate | null): orders.TaxEstimate | null {
  if (!e) return null;
  return {
    regime: e.regime,
    value: fenText(e.valueFen),
    duty: fenText(e.dutyFen),
    vat: fenText(e.vatFen),
    consumption: fenText(e.consumptionFen),
    postal: fenText(e.postalFen),
    total: fenText(e.totalFen),
    waived: e.waived,
    overOrderLimit: e.overOrderLimit,
    incomplete: e.incomplete,
  };
}
