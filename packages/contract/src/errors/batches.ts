import type { Catalogue } from './catalogue.ts';

/** Messages of the batch import, in both API languages (imported by the service and the parse worker). */
export const batchesMessages = {
  fileNotXlsx: { en: 'Only .xlsx workbooks can be uploaded.', 'zh-CN': '只能上传 .xlsx 格式的工作簿。' },
  fileEncryptedOrXls: {
    en: 'The file is password-protected or an old .xls workbook. Remove the password and save it as .xlsx.',
    'zh-CN': '文件受密码保护或为旧版 .xls 格式，请取消密码并另存为 .xlsx。',
  },
  fileZipBomb: {
    en: 'The workbook expands to an unreasonable size and was refused.',
    'zh-CN': '工作簿解压后体积异常，已拒绝。',
  },
  fileCorrupt: {
    en: 'The workbook cannot be read (it may be damaged).',
    'zh-CN': '无法读取工作簿（文件可能已损坏）。',
  },
  fileTooLarge: { en: 'The file is larger than {max} MB.', 'zh-CN': '文件大小超过 {max} MB。' },
  fileMergedCells: {
    en: 'The sheet has merged cells. Unmerge them and fill every row, then upload again.',
    'zh-CN': '表格中有合并单元格，请取消合并并逐行填写后重新上传。',
  },
  fileMissingColumns: { en: 'Required columns are missing: {columns}', 'zh-CN': '缺少必填列：{columns}' },
  fileWrongTemplate: {
    en: 'This sheet looks like the {looksLike}, not the {expected} chosen here. Choose that template on the page, or download the {expected} and copy the rows into it.',
    'zh-CN':
      '该表格看起来是「{looksLike}」，而不是此处选择的「{expected}」。请在页面上选择对应的模板，或下载「{expected}」并把数据复制进去。',
  },
  fileNotTemplate: {
    en: 'This sheet is not the {expected} chosen here. Download the {expected} and copy the rows into it.',
    'zh-CN': '该表格不是此处选择的「{expected}」。请下载「{expected}」并把数据复制进去。',
  },
  senderRequired: {
    en: 'The order has no sender: fill the sender columns, or give the customer a sender (its last order or export nomination).',
    'zh-CN': '订单没有寄件人：请填写寄件人列，或为客户设置寄件人（取其最近订单或出口名义人）。',
  },
  errorSourceRowTitle: { en: 'Row in upload', 'zh-CN': '上传文件行号' },
  fileWrongCurrency: {
    en: 'The prices of this sheet are in {found}, which the {expected} does not take. Download the {expected} and enter the prices in its currency.',
    'zh-CN': '该表格的单价币种为 {found}，「{expected}」不使用该币种。请下载「{expected}」并按其币种填写单价。',
  },
  fileNoHeader: { en: 'No header row of the template was found.', 'zh-CN': '未找到模板的表头行。' },
  fileNoRows: { en: 'The workbook has no order rows.', 'zh-CN': '工作簿中没有订单行。' },
  fileRowsPastLimit: {
    en: 'The sheet has rows past row {max}, the last row Excel allows.',
    'zh-CN': '工作表中有超过第 {max} 行（Excel 的最大行数）的行。',
  },
  fileColumnsPastLimit: {
    en: 'The sheet has cells past column {max}, the last column Excel allows.',
    'zh-CN': '工作表中有超过 {max} 列（Excel 的最大列）的单元格。',
  },
  fileRowTooLong: {
    en: 'A row of the sheet is longer than {mb} MB of text; it was refused.',
    'zh-CN': '工作表中某一行的文本超过 {mb} MB，已被拒绝。',
  },
  parseTimeout: {
    en: 'Reading the workbook took longer than {seconds} seconds and was stopped.',
    'zh-CN': '读取工作簿超过 {seconds} 秒，已停止。',
  },
  parseOutOfMemory: {
    en: 'Reading the workbook needed more memory than allowed and was stopped.',
    'zh-CN': '读取工作簿所需内存超出限制，已停止。',
  },
  parseShutdown: {
    en: 'The server stopped while reading the workbook. Upload it again.',
    'zh-CN': '读取工作簿时服务器已停止，请重新上传。',
  },
  fileTooManyListedRows: {
    en: 'The sheet lists more than {max} rows, blank ones included: delete the empty rows below the data and upload it again.',
    'zh-CN': '工作表（含空行）超过 {max} 行：请删除数据下方的空行后重新上传。',
  },
  fileTooManyRows: { en: 'At most {max} rows per upload.', 'zh-CN': '每次最多上传 {max} 行。' },
  cellNumberTooLong: {
    en: 'A long number was stored as a number and lost digits: format the column as text and type it again.',
    'zh-CN': '长数字被存为数值而丢失了位数，请将该列设为文本格式后重新输入。',
  },
  cellFormulaNoValue: {
    en: 'A formula without a calculated value: paste the value instead.',
    'zh-CN': '公式没有计算结果，请粘贴为数值。',
  },
  cellErrorValue: { en: 'The cell holds an error value (#N/A …).', 'zh-CN': '单元格为错误值（#N/A 等）。' },
  cellRequired: { en: 'This cell cannot be empty.', 'zh-CN': '此单元格不能为空。' },
  cellMoneyFormat: {
    en: 'Not an amount with at most {decimals} decimals.',
    'zh-CN': '金额格式不正确（最多 {decimals} 位小数）。',
  },
  cellMoneyWhole: {
    en: '{currency} prices are whole units, without decimals (JPY prices are whole yen).',
    'zh-CN': '{currency} 价格须为整数，不能有小数（日元价格以整日元计）。',
  },
  cellDiffersWithinOrder: {
    en: 'Differs from row {first} of the same order (leave it empty or make it equal).',
    'zh-CN': '与同一订单第 {first} 行不一致（留空或保持一致）。',
  },
  boxNoRequired: { en: 'Box number cannot be empty', 'zh-CN': '箱号不能为空' },
  channelRequired: { en: 'Choose a channel.', 'zh-CN': '请选择渠道。' },
  channelUnknown: { en: 'Unknown channel: {value}', 'zh-CN': '未知渠道：{value}' },
  channelNotForCall: { en: 'This upload does not take channel {value}.', 'zh-CN': '此上传不支持渠道 {value}。' },
  duplicateOrderNoDropped: {
    en: 'Order number {value} appears again at row {row}; the last one wins and this row is dropped.',
    'zh-CN': '订单号 {value} 在第 {row} 行再次出现，以最后一次为准，本行被忽略。',
  },
  rowOfOrderWithErrors: {
    en: 'Part of an order with errors (see row {row}): fix that row and this one is made with it.',
    'zh-CN': '所属订单有错误（见第 {row} 行）：修正该行后本行随订单一起创建。',
  },
  errorColumnTitle: { en: 'Errors', 'zh-CN': '错误说明' },
  confirmKind_minorId: { en: "Recipients' ID cards show minors.", 'zh-CN': '收件人身份证显示为未成年人。' },
  confirmKind_multiplePricesPerJan: {
    en: 'One JAN has several prices in one box.',
    'zh-CN': '同一箱内同一 JAN 有多个价格。',
  },
  confirmKind_crossBorderLimit: {
    en: 'Orders above the CNY 5,000 cross-border limit per order.',
    'zh-CN': '订单金额超过跨境电商单次交易限值 5000 元。',
  },
  batchNotFound: { en: 'No such batch.', 'zh-CN': '批次不存在。' },
  batchNotInPreview: {
    en: 'This batch cannot be confirmed in its state ({status}).',
    'zh-CN': '该批次当前状态（{status}）不能确认。',
  },
  batchHasErrors: {
    en: 'The batch has rows with errors: download the error workbook, fix them and upload again.',
    'zh-CN': '批次中有错误行：请下载错误文件，修改后重新上传。',
  },
  batchNoValidOrders: {
    en: 'No order of this batch is free of errors: download the error workbook, fix it and upload again.',
    'zh-CN': '该批次没有无错误的订单：请下载错误文件，修改后重新上传。',
  },
  batchConfirmationsMissing: { en: 'Please confirm: {kinds}', 'zh-CN': '请确认：{kinds}' },
  batchInterrupted: {
    en: 'Creation Failed: the server restarted during the import; nothing was written. Upload the file again.',
    'zh-CN': '创建失败：导入期间服务器重启，未写入任何订单，请重新上传。',
  },
  batchPreviewExpired: {
    en: 'The preview expired {minutes} minutes after it was made without being confirmed, and was removed. Upload the file again.',
    'zh-CN': '预览生成后 {minutes} 分钟内未确认，已过期并被清除，请重新上传文件。',
  },
  batchFileGone: {
    en: 'the uploaded file is no longer available on the server; please upload it again',
    'zh-CN': '上传的文件在服务器上已不存在，请重新上传',
  },
  batchInternalError: {
    en: 'an internal error occurred (reference {errorId})',
    'zh-CN': '发生内部错误（编号 {errorId}）',
  },
  batchCommitFailed: {
    en: 'Creation Failed: {reason}. Nothing was written.',
    'zh-CN': '创建失败：{reason}。未写入任何订单。',
  },
  batchOrderNosTaken: {
    en: 'Creation Failed: order numbers already exist ({value}). Nothing was written.',
    'zh-CN': '创建失败：订单号已存在（{value}），未写入任何订单。',
  },
  batchDeleteRefused: {
    en: 'The batch cannot be deleted: {count} of its orders have moved past created (e.g. {orderNo}).',
    'zh-CN': '该批次不能删除：其中 {count} 个订单已不是已创建状态（如 {orderNo}）。',
  },
  batchBusy: { en: 'The batch is still being processed.', 'zh-CN': '批次仍在处理中。' },
  noErrorWorkbook: { en: 'This batch has no error workbook.', 'zh-CN': '该批次没有错误文件。' },
  templateNotImportable: { en: 'This template cannot be imported here.', 'zh-CN': '此模板不能在此导入。' },
} as const satisfies Catalogue;
