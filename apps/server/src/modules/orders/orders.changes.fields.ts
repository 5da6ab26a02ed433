import { type ApiLanguage, orders } from '@console/contract';
import type { OrderInput } from '../../domain/order-input.ts';

/**
 * The fields a change of many orders may name (orders.changes.ts): how each reads and writes
 * the order, its sheet headers and limits, and which fields each kind of change offers.
 */
export type ChangeKind = 'batchSender' | 'updates';
export type Field = orders.BulkField;

/** How a field reads and writes the order (OrderInput path and column), its sheet headers and limits. */
export interface FieldDef {
  zh: string;
  en: string;
  max: number;
  /** A value the order must have: a blank cell keeps the old one, and it cannot be emptied. */
  required: boolean;
  column: string;
  get: (o: OrderInput) => string | null;
  put: (o: OrderInput, v: string | null) => void;
}
const recipient = (
  key: keyof OrderInput['recipient'],
  column: string,
  zh: string,
  en: string,
  max: number,
  required: boolean,
): FieldDef => ({
  zh,
  en,
  max,
  required,
  column,
  get: (o) => o.recipient[key] ?? null,
  put: (o, v) => void ((o.recipient as unknown as Record<string, string | null>)[key] = v),
});
const sender = (key: keyof OrderInput['sender'], column: string, zh: string, en: string, max: number): FieldDef => ({
  zh,
  en,
  max,
  required: false,
  column,
  get: (o) => o.sender[key],
  put: (o, v) => void (o.sender[key] = v),
});
export const FIELDS: Record<Field, FieldDef> = {
  senderName: sender('name', 'sender_name', '发件人', 'Sender name', 100),
  senderAddress: sender('address', 'sender_address', '发件地址', 'Sender address', 200),
  senderPhone: sender('phone', 'sender_phone', '发件电话', 'Sender phone', 32),
  recipientName: recipient('name', 'recipient_name', '收件人', 'Recipient name', 64, true),
  recipientIdCard: recipient('idCard', 'recipient_id_card', '身份证号', 'ID number', 18, true),
  recipientPhone: recipient('phone', 'recipient_phone', '收件电话', 'Recipient phone', 32, true),
  recipientEmail: recipient('email', 'recipient_email', '邮箱', 'Email', 128, false),
  recipientProvince: recipient('province', 'recipient_province', '省份', 'Province', 32, true),
  recipientCity: recipient('city', 'recipient_city', '城市', 'City', 32, true),
  recipientDistrict: recipient('district', 'recipient_district', '区县', 'District', 32, true),
  recipientStreet: recipient('street', 'recipient_street', '街道', 'Street', 64, false),
  recipientAddress: recipient('address', 'recipient_address', '详细地址', 'Address', 200, true),
  recipientPostcode: recipient('postcode', 'recipient_postcode', '邮编', 'Postcode', 10, false),
  userRefNo: {
    zh: '用户参考号',
    en: 'User reference',
    max: 64,
    required: false,
    column: 'user_ref_no',
    get: (o) => o.userRefNo,
    put: (o, v) => void (o.userRefNo = v),
  },
  remark: {
    zh: '备注',
    en: 'Remark',
    max: 500,
    required: false,
    column: 'remark',
    get: (o) => o.remark,
    put: (o, v) => void (o.remark = v),
  },
};
export const KIND_FIELDS: Record<ChangeKind, readonly Field[]> = {
  batchSender: orders.SENDER_FIELDS,
  updates: orders.bulkField.options,
};
export const ORDER_NO_HEADERS = new Set(['订单号', 'order number', 'order no', 'orderno']);
export const fieldLabel = (lang: ApiLanguage, f: Field) => (lang === 'en' ? FIELDS[f].en : FIELDS[f].zh);
