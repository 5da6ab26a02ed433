import type { Catalogue } from './catalogue.ts';

/** Messages of address-modification batches (modules/label-b) in both API languages. */
export const labelBMessages = {
  labelBBatchNotFound: { en: 'Address batch not found.', 'zh-CN': '地址修改批次不存在。' },
  labelBNoRows: {
    en: 'The workbook has no rows: one order number and its new address per row.',
    'zh-CN': '表格中没有数据：每行一个订单号及其新地址。',
  },
  labelBTooManyRows: { en: 'At most {max} rows per batch.', 'zh-CN': '每个批次最多 {max} 行。' },
  labelBNotDraft: {
    en: 'This batch has already been confirmed.',
    'zh-CN': '该批次已经确认过。',
  },
  labelBNothingToApply: {
    en: 'No row of this batch can be applied: every row was refused.',
    'zh-CN': '该批次没有可修改的行：所有行都被拒绝。',
  },
  labelBOrderNotFound: { en: 'Order {orderNo} not found.', 'zh-CN': '订单 {orderNo} 不存在。' },
  labelBDuplicate: {
    en: 'Order {orderNo} is already in an earlier row of this file.',
    'zh-CN': '订单 {orderNo} 在本文件前面的行中已出现。',
  },
  labelBRequired: { en: '{field} cannot be empty.', 'zh-CN': '{field}不能为空。' },
  labelBTooLong: { en: '{field} is longer than {max} characters.', 'zh-CN': '{field}超过 {max} 个字符。' },
  labelBPhone: { en: 'Not a phone number: {value}', 'zh-CN': '电话号码格式不正确：{value}' },
  labelBWillReplace: {
    en: 'Order {orderNo} is already printed: a replacement label B will be needed.',
    'zh-CN': '订单 {orderNo} 已打印面单：需要重新打印 B 面单。',
  },
  labelBApplyFailed: {
    en: 'Nothing was changed: {reason}',
    'zh-CN': '未做任何修改：{reason}',
  },
  labelBApplyError: {
    en: 'Nothing was changed: the batch could not be applied.',
    'zh-CN': '未做任何修改：批次执行失败。',
  },
  labelBColOrderNo: { en: 'Order No.', 'zh-CN': '订单号' },
  labelBColName: { en: 'Recipient', 'zh-CN': '收件人' },
  labelBColPhone: { en: 'Phone', 'zh-CN': '电话' },
  labelBColProvince: { en: 'Province', 'zh-CN': '省' },
  labelBColCity: { en: 'City', 'zh-CN': '市' },
  labelBColDistrict: { en: 'District', 'zh-CN': '区' },
  labelBColAddress: { en: 'Address', 'zh-CN': '详细地址' },
  labelBColOld: { en: 'Old address', 'zh-CN': '原地址' },
  labelBColOutcome: { en: 'Result', 'zh-CN': '结果' },
  labelBColReason: { en: 'Reason / warning', 'zh-CN': '原因 / 提示' },
  labelBColLabelB: { en: 'Label B', 'zh-CN': 'B 面单' },
  labelBOutcome_ok: { en: 'To change', 'zh-CN': '待修改' },
  labelBOutcome_refused: { en: 'Refused', 'zh-CN': '已拒绝' },
  labelBOutcome_changed: { en: 'Changed', 'zh-CN': '已修改' },
  labelBYes: { en: 'Yes', 'zh-CN': '是' },
  labelBTemplateName: { en: 'address-modification-template', 'zh-CN': '修改地址模板' },
  labelBExportName: { en: 'address-batch', 'zh-CN': '修改地址批次' },
  labelBSheet: { en: 'Addresses', 'zh-CN': '地址' },
} as const satisfies Catalogue;
