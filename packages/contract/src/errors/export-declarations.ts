import type { Catalogue } from './catalogue.ts';

/** Messages of Japanese export declarations in both API languages (spec §5 and the permit). */
export const exportDeclarationsMessages = {
  declPair: {
    en: 'Fill in both the product name and the amount, or leave both empty to clear the declaration.',
    'zh-CN': '品名和金额必须同时填写或同时为空（同时为空将清除申报数据）。',
  },
  declAmountPositive: {
    en: 'The amount must be greater than 0 (whole yen, digits only).',
    'zh-CN': '金额必须大于 0（日元整数，只能填数字）。',
  },
  declAmountTooLarge: {
    en: 'The amount is too large (at most JPY 2,000,000,000).',
    'zh-CN': '金额过大（最多 2,000,000,000 日元）。',
  },
  declOrderNotFound: { en: 'Order not found.', 'zh-CN': '订单不存在。' },
  declNotJapan: {
    en: 'This order does not leave Japan (it is not priced in JPY): no Japanese export declaration.',
    'zh-CN': '该订单不是从日本出口（非日元计价），无需日本出口申报。',
  },
  declUnknownKey: {
    en: '{key} is not one of your orders.',
    'zh-CN': '{key} 不是您的订单。',
  },
  declDuplicateKey: {
    en: '{key} appears more than once in the file.',
    'zh-CN': '{key} 在文件中重复出现。',
  },
  declRunFailed: {
    en: 'The declarations could not be saved; nothing was changed. Please import the file again.',
    'zh-CN': '申报数据保存失败，未做任何修改，请重新导入文件。',
  },
  declRunFileGone: {
    en: 'The checked rows could not be found any more; nothing was changed. Please import the file again.',
    'zh-CN': '已检查的数据已找不到，未做任何修改，请重新导入文件。',
  },
  declNoRows: { en: 'The file has no data rows.', 'zh-CN': '文件中没有数据行。' },
  declTooManyRows: { en: 'At most {max} rows per file.', 'zh-CN': '每个文件最多 {max} 行。' },
  declHasErrors: {
    en: 'Nothing was saved: {count} row(s) have errors. Fix them (see the error workbook) and upload again.',
    'zh-CN': '未保存任何数据：有 {count} 行有错误。请按错误文件修正后重新上传。',
  },
  declErrorsName: { en: 'export-declaration-errors', 'zh-CN': '出口申报错误' },
  declErrorsSheet: { en: 'Errors', 'zh-CN': '错误' },
  declReasonColumn: { en: 'Reason', 'zh-CN': '原因' },
  declRowColumn: { en: 'Row', 'zh-CN': '行' },
  declNotDeclared: {
    en: 'This order has no declaration yet: enter the product name and amount first.',
    'zh-CN': '该订单尚未填写申报数据，请先填写品名和金额。',
  },
  declNotPdf: { en: 'The permit must be a PDF file.', 'zh-CN': '出口许可必须是 PDF 文件。' },
  declNoFile: { en: 'Choose the permit PDF.', 'zh-CN': '请选择出口许可 PDF 文件。' },
  declNoPermit: { en: 'No export permit has been uploaded for this order.', 'zh-CN': '该订单尚未上传出口许可。' },
  declMailFailed: {
    en: 'The permit could not be e-mailed (reference {errorId}).',
    'zh-CN': '许可证邮件发送失败（编号 {errorId}）。',
  },
  declMailRefused: {
    en: 'The mail server refused the permit e-mail; it is not sent again. Check the receiving address (reference {errorId}).',
    'zh-CN': '邮件服务器拒收了许可证邮件，不会再次发送。请检查收件地址（编号 {errorId}）。',
  },
  // The queue gave up on the mail job (its server restarted each time it ran): it may have gone out.
  declMailStopped: {
    en: 'Sending the permit e-mail was interrupted too many times (the server restarted each time), so it is not tried again; it may or may not have reached the recipient. Upload the permit again to send it again.',
    'zh-CN':
      '许可证邮件的发送多次被中断（服务器每次都重启了），因此不再重试；收件人可能已收到，也可能未收到。如需重新发送，请重新上传许可证。',
  },
  declMailNoAddress: {
    en: 'The permit was not e-mailed: the export nomination has no receiving e-mail address. Add it, then upload the permit again to send it.',
    'zh-CN': '许可证未发送邮件：出口抬头未设置接收邮箱。请先设置接收邮箱，再重新上传许可证以发送。',
  },
  declMailSubject: { en: 'Export permit {orderNo}', 'zh-CN': '出口许可 {orderNo}' },
  declMailBody: {
    en: 'Attached is the export permit of order {orderNo} (waybill {waybillNo}).',
    'zh-CN': '附件为订单 {orderNo}（运单号 {waybillNo}）的出口许可。',
  },
} as const satisfies Catalogue;
