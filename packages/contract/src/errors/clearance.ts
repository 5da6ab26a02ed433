import type { Catalogue } from './catalogue.ts';

/** The clearance results' messages (upload, template, webhook), in both languages. */
export const clearanceMessages = {
  clearanceUnknownCompany: { en: 'Unknown clearance company.', 'zh-CN': '未知的清关公司。' },
  clearanceNoWaybillColumn: {
    en: 'The sheet has no waybill number column: use the template.',
    'zh-CN': '表格没有运单号列，请使用模板。',
  },
  clearanceNoResultColumn: {
    en: 'The sheet has no result column: use the template.',
    'zh-CN': '表格没有结果列，请使用模板。',
  },
  clearanceSheetEmpty: { en: 'The sheet has no result rows.', 'zh-CN': '表格中没有结果行。' },
  clearanceTooManyRows: {
    en: 'The sheet has more than {max} rows: split it.',
    'zh-CN': '表格超过 {max} 行，请拆分后上传。',
  },
  clearanceRowNoWaybill: { en: 'The waybill number is empty.', 'zh-CN': '运单号为空。' },
  clearanceRowBadResult: {
    en: 'The result must be released or refused (放行 / 退单).',
    'zh-CN': '结果必须为“放行”或“退单”（released / refused）。',
  },
  clearanceRowNoReason: {
    en: 'A refused row needs a reason code ({codes}).',
    'zh-CN': '退单行需要填写原因代码（{codes}）。',
  },
  clearanceRowUnknownReason: {
    en: 'Unknown reason code "{code}" (known: {codes}).',
    'zh-CN': '未知的原因代码“{code}”（可用：{codes}）。',
  },
  clearanceRowDuplicate: {
    en: 'The waybill number is also on row {row} of this sheet.',
    'zh-CN': '运单号与本表第 {row} 行重复。',
  },
  clearanceRowNoOrder: { en: 'No order has this waybill number.', 'zh-CN': '没有该运单号的订单。' },
  clearanceRowOtherCompany: {
    en: 'The order is declared with another clearance company.',
    'zh-CN': '该订单由其他清关公司清关。',
  },
  clearanceRowRemarkTooLong: { en: 'The remark is longer than 500 characters.', 'zh-CN': '备注超过 500 个字符。' },
  clearanceErrorsSheet: { en: 'Rows not applied', 'zh-CN': '未导入的行' },
  clearanceErrorColumn: { en: 'Reason', 'zh-CN': '原因' },
  clearanceRowColumn: { en: 'Row', 'zh-CN': '行号' },
  clearanceErrorsName: { en: 'clearance-results-errors', 'zh-CN': '清关结果-错误行' },
  clearanceTemplateName: { en: 'clearance-results-{company}', 'zh-CN': '清关结果-{company}' },
  clearanceTemplateSheet: { en: 'Results', 'zh-CN': '清关结果' },
  clearanceReasonsSheet: { en: 'Reason codes', 'zh-CN': '原因代码' },
  clearanceHeaderWaybill: { en: 'Waybill number', 'zh-CN': '运单号' },
  clearanceHeaderResult: { en: 'Result (released / refused)', 'zh-CN': '结果（放行 / 退单）' },
  clearanceHeaderReason: { en: 'Reason code', 'zh-CN': '原因代码' },
  clearanceHeaderRemark: { en: 'Remark', 'zh-CN': '备注' },
  clearanceHeaderCode: { en: 'Code', 'zh-CN': '代码' },
  clearanceHeaderMeaning: { en: 'Meaning', 'zh-CN': '含义' },
  clearanceWebhookStale: {
    en: 'The timestamp is missing or more than 5 minutes from now.',
    'zh-CN': '时间戳缺失或与当前时间相差超过 5 分钟。',
  },
  clearanceWebhookSignature: { en: 'The signature is not valid.', 'zh-CN': '签名无效。' },
  clearanceWebhookReplay: {
    en: 'This delivery was already received.',
    'zh-CN': '该推送已接收过。',
  },
  clearanceWebhookRefused: {
    en: 'Results not applied: {count} of them cannot be (nothing changed).',
    'zh-CN': '结果未导入：其中 {count} 条无法导入（未做任何修改）。',
  },
} as const satisfies Catalogue;
