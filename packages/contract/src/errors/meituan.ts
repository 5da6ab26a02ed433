import type { Catalogue } from './catalogue.ts';

/** Messages of Meituan reservation orders in both API languages. */
export const meituanMessages = {
  meituanNotFound: { en: 'Meituan reservation order not found.', 'zh-CN': '美团预约单不存在。' },
  meituanNoRows: { en: 'The sheet holds no orders.', 'zh-CN': '表格中没有预约单。' },
  meituanTooManyRows: { en: 'At most {max} rows per upload.', 'zh-CN': '每次上传最多 {max} 行。' },
  meituanRequired: { en: '{column} is required.', 'zh-CN': '{column}不能为空。' },
  meituanTooLong: { en: '{column}: at most {max} characters.', 'zh-CN': '{column}最多 {max} 个字符。' },
  meituanText: {
    en: '{column} holds a character that cannot be stored (a control or direction character).',
    'zh-CN': '{column}含有无法保存的字符（控制字符或方向字符）。',
  },
  meituanBarcode: {
    en: '{value} is not a valid JAN/EAN barcode (8 or 13 digits ending in its check digit).',
    'zh-CN': '{value} 不是有效的 JAN/EAN 条码（8 位或 13 位数字，最后一位为校验位）。',
  },
  meituanPrice: {
    en: 'The price must be an amount above 0 with at most 2 decimals.',
    'zh-CN': '单价必须大于 0，最多两位小数。',
  },
  meituanCount: { en: 'The count must be a whole number from 1 to 99999.', 'zh-CN': '数量必须是 1 到 99999 的整数。' },
  meituanPhone: { en: 'The receiver phone is not a phone number.', 'zh-CN': '收件电话格式不正确。' },
  meituanMismatch: {
    en: 'Rows of system number {systemNo} disagree on {column} (see row {first}).',
    'zh-CN': '系统单号 {systemNo} 的各行{column}不一致（见第 {first} 行）。',
  },
  meituanSystemNoExists: {
    en: 'System number {systemNo} was uploaded before.',
    'zh-CN': '系统单号 {systemNo} 已上传过。',
  },
  meituanErrorsName: { en: 'meituan-upload-errors', 'zh-CN': '美团预约单错误行' },
  meituanErrorsSheet: { en: 'Errors', 'zh-CN': '错误行' },
  meituanRowColumn: { en: 'Row', 'zh-CN': '行号' },
  meituanReasonColumn: { en: 'Reason', 'zh-CN': '原因' },
  meituanStatus_0: { en: 'Pending operation', 'zh-CN': '待操作' },
  meituanStatus_1: { en: 'Completed', 'zh-CN': '已完成' },
} as const satisfies Catalogue;
