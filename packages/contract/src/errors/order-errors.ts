import type { Catalogue } from './catalogue.ts';

/**
 * Errors of an order found downstream: a shipped order's fix that touches a locked field, and a
 * clearance company's refusal codes, each stored on the order as `errorReason.clearance.<code>`
 * (the codes and the fields each names are the server's modules/orders/order-errors.ts).
 */
export const orderErrorsMessages = {
  shippedFixFieldLocked: {
    en: 'The order has shipped: only the recipient name, ID number, phone and address can be fixed.',
    'zh-CN': '订单已出库：只能修正收件人姓名、身份证号、电话和地址。',
  },
  'errorReason.clearance.C01': {
    en: 'Customs: the ID number does not match the recipient name.',
    'zh-CN': '海关：身份证号与收件人姓名不一致。',
  },
  'errorReason.clearance.C02': {
    en: 'Customs: the recipient phone cannot be reached.',
    'zh-CN': '海关：收件人电话无法联系。',
  },
  'errorReason.clearance.C03': {
    en: 'Customs: the recipient address is incomplete or wrong.',
    'zh-CN': '海关：收件人地址不完整或有误。',
  },
  'errorReason.clearance.C04': {
    en: "Customs: the recipient's yearly cross-border allowance is used up.",
    'zh-CN': '海关：收件人跨境电商年度额度已用完。',
  },
  'errorReason.clearance.C99': {
    en: "Customs refused the recipient's data: check the name, ID number, phone and address.",
    'zh-CN': '海关退单：请核对收件人姓名、身份证号、电话和地址。',
  },
} as const satisfies Catalogue;
