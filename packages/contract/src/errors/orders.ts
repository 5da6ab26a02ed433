import type { Catalogue } from './catalogue.ts';

/** Messages of the orders workspace, in both API languages. */
export const ordersMessages = {
  // Status names in exported workbooks.
  'status.created': { en: 'Created', 'zh-CN': '已创建' },
  'status.printed': { en: 'Printed', 'zh-CN': '已打印' },
  'status.received': { en: 'Received', 'zh-CN': '已收货' },
  'status.shipped': { en: 'Shipped', 'zh-CN': '已发货' },
  'status.released': { en: 'Released', 'zh-CN': '已放行' },
  'status.cancelled': { en: 'Cancelled', 'zh-CN': '已取消' },
  orderNotFound: { en: 'Order not found.', 'zh-CN': '订单不存在。' },
  orderCustomerUnknown: { en: 'This customer does not exist.', 'zh-CN': '该客户不存在。' },
  itemNotFound: { en: 'Item not found.', 'zh-CN': '商品不存在。' },
  orderLockedReceived: {
    en: 'Order {orderNo} has been received at the warehouse and can no longer be changed or deleted.',
    'zh-CN': '订单 {orderNo} 已入库收货，不能再修改或删除。',
  },
  orderLockedShipped: {
    en: 'Order {orderNo} has been shipped and can no longer be changed or deleted.',
    'zh-CN': '订单 {orderNo} 已发货，不能再修改或删除。',
  },
  orderLockedIntercepted: {
    en: 'Order {orderNo} is intercepted and can no longer be changed or deleted.',
    'zh-CN': '订单 {orderNo} 已被拦截，不能再修改或删除。',
  },
  orderCharged: {
    en: 'Order {orderNo} has charges on a bill and cannot be deleted.',
    'zh-CN': '订单 {orderNo} 已产生账单费用，不能删除。',
  },
  orderLockedCancelled: {
    en: 'Order {orderNo} is cancelled and can no longer be changed.',
    'zh-CN': '订单 {orderNo} 已取消，不能再修改。',
  },
  confirmationRequired: {
    en: 'Please confirm to continue.',
    'zh-CN': '请确认后继续。',
  },
  priceDecimals: {
    en: 'Too many decimal places for {currency}.',
    'zh-CN': '{currency} 金额的小数位数过多。',
  },
  lastItem: { en: 'An order keeps at least one item.', 'zh-CN': '订单至少保留一件商品。' },
  notErrorOrder: { en: 'This order is not an error order.', 'zh-CN': '该订单不是错误订单。' },
  errorUnchanged: {
    en: 'Nothing it names has changed since the error was found: {reason}',
    'zh-CN': '发现错误后相关字段未修改：{reason}',
  },
  orderChangedMeanwhile: {
    en: 'Order {orderNo} was changed by someone else meanwhile; reload and try again.',
    'zh-CN': '订单 {orderNo} 已被他人同时修改，请刷新后重试。',
  },
  notBoxChannel: { en: 'This channel has no boxes.', 'zh-CN': '该渠道不使用箱号。' },
  operatorsOnly: { en: 'Only operators can do this.', 'zh-CN': '只有操作员可以执行此操作。' },
  fileTypeNotAllowed: {
    en: 'Only {types} files are accepted (checked by content).',
    'zh-CN': '只接受 {types} 文件（按内容校验）。',
  },
  imageTooLarge: { en: 'The image is over {mb} MB.', 'zh-CN': '图片超过 {mb} MB。' },
  imageTooSmall: {
    en: 'The image is empty or too small to be an ID card photo.',
    'zh-CN': '图片为空或过小，不像身份证照片。',
  },
  xlsEncrypted: {
    en: 'This workbook is password-protected; remove the password (or save it as .xlsx without one) and upload again.',
    'zh-CN': '该工作簿设置了密码；请取消密码（或另存为无密码的 .xlsx）后重新上传。',
  },
  xlsTooOld: {
    en: 'This .xls is in a format older than Excel 97; please save it as .xlsx and upload again.',
    'zh-CN': '该 .xls 文件的格式早于 Excel 97，请另存为 .xlsx 后重新上传。',
  },
  xlsCorrupt: {
    en: 'The .xls file is damaged or is not an Excel workbook.',
    'zh-CN': '该 .xls 文件已损坏或不是 Excel 工作簿。',
  },
  workbookUnreadable: { en: 'The workbook cannot be read.', 'zh-CN': '无法读取该工作簿。' },
  workbookZipBomb: {
    en: 'The workbook expands to an unreasonable size and was refused.',
    'zh-CN': '该工作簿解压后体积异常，已被拒绝。',
  },
  workbookEmpty: { en: 'No numbers were found in the first column.', 'zh-CN': '第一列中没有找到单号。' },
  tooManyNumbers: { en: 'At most {max} numbers at a time.', 'zh-CN': '一次最多 {max} 个单号。' },
  idCardNeedsTarget: {
    en: 'Choose an order, or give the recipient name and ID number.',
    'zh-CN': '请选择订单，或填写收件人姓名和身份证号。',
  },
  idCardOwnerOnly: {
    en: 'Only the customer itself or an operator can add or see ID cards.',
    'zh-CN': '只有客户本人或操作员可以添加或查看身份证。',
  },
  idCardImportNotTemplate: {
    en: 'Upload the filled template (.xlsx), or a .zip holding the template and its images.',
    'zh-CN': '请上传填好的模板（.xlsx），或包含模板和图片的 .zip 文件。',
  },
  idCardImportErrorColumn: { en: 'Errors', 'zh-CN': '错误' },
  idCardImportRowColumn: { en: 'Row in upload', 'zh-CN': '原表行号' },
  idCardZipCorrupt: {
    en: 'The .zip cannot be read, or it unpacks to far more than a set of photos.',
    'zh-CN': '无法读取该 .zip 文件，或解压后远大于一组照片。',
  },
  idCardZipDuplicate: {
    en: 'The .zip holds two files named {value}.',
    'zh-CN': '.zip 中有两个名为 {value} 的文件。',
  },
  idCardZipTemplateCount: {
    en: 'The .zip must hold exactly one .xlsx template (it holds {count}).',
    'zh-CN': '.zip 中必须恰好有一个 .xlsx 模板（现有 {count} 个）。',
  },
  idCardImportHeaders: {
    en: 'The first sheet is not the ID-card template: missing column {columns}.',
    'zh-CN': '第一个工作表不是身份证模板：缺少列 {columns}。',
  },
  idCardImportEmpty: { en: 'The template has no rows to import.', 'zh-CN': '模板中没有可导入的行。' },
  idCardImportTooManyRows: { en: 'At most {max} rows at a time.', 'zh-CN': '一次最多 {max} 行。' },
  idCardRowRequired: { en: 'Required.', 'zh-CN': '必填。' },
  idCardOrderUnknown: {
    en: 'No order {value} of this customer.',
    'zh-CN': '该客户没有订单 {value}。',
  },
  idCardWaybillUnknown: {
    en: 'No order of this customer has waybill {value}.',
    'zh-CN': '该客户没有运单号为 {value} 的订单。',
  },
  idCardWaybillOtherOrder: {
    en: 'Waybill {value} belongs to another order than the order number.',
    'zh-CN': '运单号 {value} 属于另一个订单，与订单号不符。',
  },
  idCardNotOrderRecipient: {
    en: 'Does not match the recipient of order {orderNo}.',
    'zh-CN': '与订单 {orderNo} 的收件人不一致。',
  },
  idCardImageNeedsZip: {
    en: 'Image {value} is named, but only the template was uploaded: pack the template and the images into one .zip.',
    'zh-CN': '填写了图片 {value}，但只上传了模板：请把模板和图片打包成一个 .zip 上传。',
  },
  idCardImageNotInZip: { en: 'No image {value} in the .zip.', 'zh-CN': '.zip 中没有图片 {value}。' },
  idCardDuplicateRow: {
    en: 'The same ID number and order as row {row}.',
    'zh-CN': '与第 {row} 行的身份证号和订单重复。',
  },
  idCardImagesUnused: {
    en: 'Images in the .zip that no row names: {names}.',
    'zh-CN': '.zip 中有未被任何行引用的图片：{names}。',
  },
  clearNeedsReason: {
    en: 'Say why the error is cleared without a change: the reason is recorded with the order.',
    'zh-CN': '请填写不修改即清除错误的原因，原因将记录在订单中。',
  },
  idCardOrderNotFound: {
    en: 'No order of yours has this number (order, waybill or reference number).',
    'zh-CN': '没有使用该单号的订单（订单号、运单号或参考号）。',
  },
  idCardOrderAmbiguous: {
    en: 'Several orders have this number: enter the waybill number of the one you mean.',
    'zh-CN': '多个订单使用该单号，请输入所指订单的运单号。',
  },
  idCardImageMissing: { en: 'This side has not been uploaded.', 'zh-CN': '该面尚未上传。' },
  scanReceived: { en: 'Received: {orderNo}', 'zh-CN': '收货成功：{orderNo}' },
  scanAlready: { en: 'Already received: {orderNo}', 'zh-CN': '已收货：{orderNo}' },
  scanIntercepted: { en: 'Intercepted, do not ship: {orderNo}', 'zh-CN': '已拦截，请勿发货：{orderNo}' },
  scanCancelled: { en: 'Cancelled order: {orderNo}', 'zh-CN': '订单已取消：{orderNo}' },
  scanNotFound: { en: 'No order with number {code}', 'zh-CN': '没有单号为 {code} 的订单' },
  postcodeCnValid: {
    en: 'Six digits in an existing postal zone. Not verified: China has no maintained public postcode dataset, so only the province is hinted.',
    'zh-CN': '6 位数字，邮区存在。未核实：中国没有公开维护的邮编数据，仅提示所属省份。',
  },
  postcodeCnUnknownZone: {
    en: 'No Chinese postal zone begins with {prefix}: check the code. Not verified (China has no public postcode dataset).',
    'zh-CN': '没有以 {prefix} 开头的中国邮区，请核对邮编。未核实（中国没有公开的邮编数据）。',
  },
  postcodeCnInvalid: { en: 'A Chinese postal code is 6 digits.', 'zh-CN': '中国邮编为 6 位数字。' },
  postcodeJpInvalid: {
    en: 'A Japanese postal code is 7 digits (123-4567).',
    'zh-CN': '日本邮编为 7 位数字（123-4567）。',
  },
  postcodeJpUnknown: { en: 'No place has this postal code.', 'zh-CN': '没有使用该邮编的地区。' },
  addressNoName: { en: 'No recipient name was found.', 'zh-CN': '没有识别到收件人姓名。' },
  addressNoPhone: { en: 'No phone number was found.', 'zh-CN': '没有识别到电话号码。' },
  addressNoProvince: { en: 'The province could not be recognised.', 'zh-CN': '无法识别省份。' },
  addressNoCity: { en: 'The city could not be recognised.', 'zh-CN': '无法识别城市。' },
  addressNoDistrict: { en: 'The district could not be recognised.', 'zh-CN': '无法识别区县。' },
  addressNoDetail: { en: 'The street address is missing.', 'zh-CN': '缺少详细地址。' },
  addressNameLeftovers: {
    en: 'The name holds more than a name (a label, a title, digits or punctuation): check it.',
    'zh-CN': '姓名中混有其他内容（标签、称呼、数字或符号），请核对。',
  },
  addressPhoneDoubtful: {
    en: 'The phone number is neither a mobile nor a landline number: check it.',
    'zh-CN': '电话号码既不是手机号也不是固定电话，请核对。',
  },
  addressDetailLeftovers: {
    en: 'The street address holds a label or a phone number: check it.',
    'zh-CN': '详细地址中混有标签或电话号码，请核对。',
  },
  addressSeveral: {
    en: 'The text holds more than one recipient or phone number; only one was taken: check it.',
    'zh-CN': '文本中有多个收件人或电话号码，只识别了其中一个，请核对。',
  },
  trackingThrottled: {
    en: 'Too many tracking queries from your address. Try again in a minute.',
    'zh-CN': '查询过于频繁，请一分钟后再试。',
  },
  abnormalRuleUnknown: { en: 'There is no such abnormal rule.', 'zh-CN': '没有该异常规则。' },
  rule_unresolvableAddress: { en: 'Unresolvable address', 'zh-CN': '地址无法解析' },
  rule_unresolvableAddress_desc: {
    en: 'The street address is too short or vague to deliver.',
    'zh-CN': '详细地址过短或不明确，无法派送。',
  },
  rule_invalidPhone: { en: 'Invalid phone', 'zh-CN': '电话无效' },
  rule_invalidPhone_desc: {
    en: 'The recipient phone is not a mainland China mobile number.',
    'zh-CN': '收件人电话不是中国大陆手机号。',
  },
  rule_valueOverLimit: { en: 'Value over the limit', 'zh-CN': '货值超限' },
  rule_valueOverLimit_desc: {
    en: 'Worth more than CNY 5,000 (cross-border retail limit per transaction).',
    'zh-CN': '货值超过人民币 5000 元（跨境电商单次交易限值）。',
  },
  rule_sameRecipientTooOften: { en: 'Same recipient too often', 'zh-CN': '同一收件人下单过于频繁' },
  rule_sameRecipientTooOften_desc: {
    en: 'The same ID number received {max} or more orders within 7 days.',
    'zh-CN': '同一身份证号 7 天内下单 {max} 次及以上。',
  },
  // Why an order is an error or abnormal order. The order stores these codes with their
  // parameters (lib/reasons.ts); the lists translate them for whoever reads them.
  'errorReason.idCardNameMismatch': {
    en: 'The ID number does not match the recipient name.',
    'zh-CN': '身份证号与收件人姓名不一致。',
  },
  'abnormalReason.unresolvableAddress': {
    en: 'The street address is too short or vague to deliver to.',
    'zh-CN': '详细地址过短或不明确，无法派送。',
  },
  'abnormalReason.invalidPhone': {
    en: 'The recipient phone is not a mainland China mobile number.',
    'zh-CN': '收件人电话不是中国大陆手机号。',
  },
  'abnormalReason.valueOverLimit': {
    en: 'Worth CNY {value}, over the CNY {limit} limit per transaction.',
    'zh-CN': '货值人民币 {value} 元，超过单次交易限值 {limit} 元。',
  },
  'abnormalReason.sameRecipientTooOften': {
    en: 'This ID number has {count} orders within 7 days ({max} or more are flagged).',
    'zh-CN': '该身份证号 7 天内已有 {count} 个订单（{max} 个及以上即标记）。',
  },
} as const satisfies Catalogue;

// Batch sender and updates (orders.changes.ts, issue 11 #15).
export const orderChangesMessages = {
  bulkSheetEmpty: { en: 'The sheet has no orders below its header row.', 'zh-CN': '表格标题行下没有订单。' },
  bulkNoOrderNoColumn: {
    en: 'The sheet has no "Order number" column: use the template.',
    'zh-CN': '表格缺少“订单号”列，请使用模板。',
  },
  bulkColumnsNotAllowed: {
    en: 'This page changes only the sender; remove these columns: {columns}.',
    'zh-CN': '此页面只修改发件人，请删除这些列：{columns}。',
  },
  bulkNoFieldColumns: {
    en: 'The sheet has no column to change: keep the template headers of the fields you change.',
    'zh-CN': '表格没有要修改的列：请保留要修改字段的模板标题。',
  },
  bulkNoOrderNo: { en: 'The order number is empty.', 'zh-CN': '订单号为空。' },
  bulkOrderNotFound: {
    en: 'No order {orderNo} among the orders you may change.',
    'zh-CN': '在您可修改的订单中没有订单 {orderNo}。',
  },
  bulkOrderNoAmbiguous: {
    en: 'Several customers have this order number ({customers}): choose the customer first.',
    'zh-CN': '多个客户有此订单号（{customers}），请先选择客户。',
  },
  bulkDuplicateOrder: {
    en: 'The order is already on an earlier row; only that row counts.',
    'zh-CN': '该订单已在前面的行中出现，只按前面那一行修改。',
  },
  bulkFieldRequired: { en: '{field} cannot be emptied.', 'zh-CN': '{field}不能为空。' },
  bulkFieldTooLong: { en: '{field} is longer than {max} characters.', 'zh-CN': '{field}超过 {max} 个字符。' },
  bulkNeedsConfirmation: {
    en: '{reason} This change needs a confirmation: make it on the order’s edit page.',
    'zh-CN': '{reason}此修改需要确认，请在订单的修改页面修改。',
  },
  bulkErrorsSheet: { en: 'Refused rows', 'zh-CN': '未修改的行' },
  bulkErrorColumn: { en: 'Why not changed', 'zh-CN': '未修改原因' },
  bulkRowColumn: { en: 'Row', 'zh-CN': '行号' },
  bulkSenderErrorsName: { en: 'batch-sender-refused-rows', 'zh-CN': '批量修改发件人-未修改的行' },
  bulkUpdatesErrorsName: { en: 'batch-updates-refused-rows', 'zh-CN': '批量修改订单-未修改的行' },
  bulkSenderTemplateName: { en: 'batch-sender-template', 'zh-CN': '批量修改发件人模板' },
  bulkUpdatesTemplateName: { en: 'batch-updates-template', 'zh-CN': '批量修改订单模板' },
  bulkPreviewNotFound: { en: 'This preview does not exist.', 'zh-CN': '该预览不存在。' },
  bulkPreviewExpired: {
    en: 'This preview is more than a day old: preview again.',
    'zh-CN': '该预览已超过一天，请重新预览。',
  },
  bulkPreviewUsed: { en: 'This preview has already been applied.', 'zh-CN': '该预览已经应用过。' },
  bulkOrderGone: {
    en: 'Order {orderNo} was deleted after the preview; nothing was changed.',
    'zh-CN': '订单 {orderNo} 在预览后已被删除，未做任何修改。',
  },
  bulkChangedSincePreview: {
    en: 'Order {orderNo} changed after the preview; nothing was changed: preview again.',
    'zh-CN': '订单 {orderNo} 在预览后有变动，未做任何修改，请重新预览。',
  },
  sheetTooManyRows: {
    en: 'The sheet has more than {max} rows: split it.',
    'zh-CN': '表格超过 {max} 行，请拆分后上传。',
  },
  sheetTooManyListedRows: {
    en: 'The sheet lists more than {max} rows, blank ones included: delete the empty rows below the data and upload it again.',
    'zh-CN': '表格（含空行）超过 {max} 行：请删除数据下方的空行后重新上传。',
  },
  sheetTooManyColumns: {
    en: 'The sheet has values past column {max}: keep the data in the first columns and delete the others.',
    'zh-CN': '表格在 {max} 列之后仍有内容：请只在前面的列填写数据，删除其余列。',
  },
} as const satisfies Catalogue;
