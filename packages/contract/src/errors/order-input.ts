import type { Catalogue } from './catalogue.ts';

export const orderInputMessages = {
  channelNotAllowed: {
    en: 'This customer may not use channel {value}.',
    'zh-CN': '该客户不能使用渠道 {value}。',
  },
  orderTextTooLong: { en: 'At most {max} characters.', 'zh-CN': '最多 {max} 个字符。' },
  orderNoRequired: { en: 'The order number cannot be empty', 'zh-CN': '订单号不能为空' },
  orderNoFormat: {
    en: 'The order number may contain letters, digits and - _ . / # only (at most 64).',
    'zh-CN': '订单号只能包含字母、数字及 - _ . / #（最多 64 位）。',
  },
  orderNoExists: { en: 'Order number {value} already exists.', 'zh-CN': '订单号 {value} 已存在。' },
  recipientNameRequired: { en: 'Recipient name cannot be empty', 'zh-CN': '收件人姓名不能为空' },
  recipientNameSymbols: {
    en: 'The recipient name may not contain emoji or symbols: it must match the name on the ID card.',
    'zh-CN': '收件人姓名不能包含表情或符号，须与身份证上的姓名一致。',
  },
  recipientPhoneRequired: { en: 'Recipient phone cannot be empty', 'zh-CN': '收件人电话不能为空' },
  recipientPhoneFormat: { en: 'The recipient phone is not a phone number.', 'zh-CN': '收件人电话格式不正确。' },
  senderPhoneFormat: { en: 'The sender phone is not a phone number.', 'zh-CN': '发件人电话格式不正确。' },
  recipientIdCardRequired: { en: 'Recipient ID card cannot be empty', 'zh-CN': '收件人身份证号不能为空' },
  idCard_format: {
    en: 'The ID card number must be 18 characters (17 digits and a digit or X).',
    'zh-CN': '身份证号须为 18 位（17 位数字加数字或 X）。',
  },
  idCard_checkDigit: { en: 'The ID card number has a wrong check digit.', 'zh-CN': '身份证号校验位错误。' },
  idCard_birthDate: {
    en: 'The birth date in the ID card number is not a real date.',
    'zh-CN': '身份证号中的出生日期无效。',
  },
  confirmMinorId: {
    en: 'The recipient is a minor (born {birth}). Confirm to continue.',
    'zh-CN': '收件人为未成年人（出生于 {birth}），确认后继续。',
  },
  confirmMultiplePricesPerJan: {
    en: 'JAN {jan} has several prices in one box. Confirm to continue.',
    'zh-CN': '同一箱内 JAN {jan} 有多个价格，确认后继续。',
  },
  confirmCrossBorderLimit: {
    en: 'The order is worth about CNY {amount}, above the CNY 5,000 cross-border limit per order. Confirm to continue.',
    'zh-CN': '订单金额约 {amount} 元，超过跨境电商单次交易限值 5000 元，确认后继续。',
  },
  provinceRequired: { en: 'Province cannot be empty', 'zh-CN': '省份不能为空' },
  cityRequired: { en: 'City cannot be empty', 'zh-CN': '城市不能为空' },
  districtRequired: { en: 'District cannot be empty', 'zh-CN': '区县不能为空' },
  addressRequired: { en: 'Address cannot be empty', 'zh-CN': '详细地址不能为空' },
  provinceUnknown: { en: 'Unknown province: {value}', 'zh-CN': '未知的省份：{value}' },
  cityUnknown: { en: 'Unknown city in this province: {value}', 'zh-CN': '该省份下没有此城市：{value}' },
  districtUnknown: { en: 'Unknown district in this city: {value}', 'zh-CN': '该城市下没有此区县：{value}' },
  postcodeFormat: { en: 'The postal code must be 6 digits.', 'zh-CN': '邮编须为 6 位数字。' },
  emailFormat: {
    en: 'Not one e-mail address (no lists, names or quotes).',
    'zh-CN': '邮箱格式不正确（只能填一个地址，不含姓名或引号）。',
  },
  orderTypeUnknown: { en: 'Unknown order type: {value}', 'zh-CN': '未知的订单类型：{value}' },
  clearanceCompanyUnknown: { en: 'Unknown clearance company: {value}', 'zh-CN': '未知的清关公司：{value}' },
  itemsRequired: { en: 'An order needs at least one item.', 'zh-CN': '订单至少需要一件商品。' },
  itemNameRequired: { en: 'Item name cannot be empty', 'zh-CN': '商品名称不能为空' },
  janInvalid: {
    en: 'JAN {value} is not a valid EAN-13/EAN-8 code (check digit).',
    'zh-CN': 'JAN {value} 不是有效的 EAN-13/EAN-8 条码（校验位）。',
  },
  quantityInvalid: {
    en: 'The quantity must be a whole number from 1 to 99999.',
    'zh-CN': '数量须为 1 至 99999 的整数。',
  },
  priceMustBePositive: { en: 'A price must be greater than 0', 'zh-CN': '价格必须大于 0' },
  currencyUnknown: { en: 'Unknown currency: {value}', 'zh-CN': '未知的币种：{value}' },
} as const satisfies Catalogue;
