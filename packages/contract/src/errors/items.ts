import type { Catalogue } from './catalogue.ts';

/** Messages of the item catalogue, in both API languages. */
export const itemsMessages = {
  catalogueItemNotFound: { en: 'Item not found.', 'zh-CN': '商品不存在。' },
  adjustmentNotFound: { en: 'Adjustment not found.', 'zh-CN': '调整记录不存在。' },
  itemJanCheckDigit: {
    en: 'The JAN is not valid: its check digit is wrong (EAN-13 or EAN-8).',
    'zh-CN': 'JAN 码无效：校验位不正确（EAN-13 或 EAN-8）。',
  },
  itemJanDuplicate: {
    en: 'An item with this JAN is already in the catalogue.',
    'zh-CN': '商品库中已有该 JAN 码的商品。',
  },
  itemPartUnknown: { en: 'Choose a part from the list.', 'zh-CN': '请从列表中选择部位。' },
  itemBrandUnknown: { en: 'Choose a brand from the list.', 'zh-CN': '请从列表中选择品牌。' },
  itemCategoryUnknown: { en: 'Choose a category from the list.', 'zh-CN': '请从列表中选择类别。' },
  itemCategoryOrNew: {
    en: 'Choose a category, or describe a new one.',
    'zh-CN': '请选择类别，或填写新类别。',
  },
  itemExportCategoryUnknown: {
    en: 'Choose an export category from the list.',
    'zh-CN': '请从列表中选择出口类别。',
  },
  itemTaxUnknown: { en: 'Choose a tax code from the list.', 'zh-CN': '请从列表中选择税号。' },
  itemImageUnknown: {
    en: 'The image was not found. Upload it again.',
    'zh-CN': '未找到该图片，请重新上传。',
  },
  itemNotPending: {
    en: 'Only items waiting for review can be approved or failed.',
    'zh-CN': '只有待审核的商品可以审核通过或驳回。',
  },
  itemAdjustNoChange: {
    en: 'The adjustment changes nothing: give at least one value different from the current one.',
    'zh-CN': '调整未改变任何内容：请至少填写一个与当前不同的值。',
  },
  itemAdjustmentOpen: {
    en: 'This item already has an adjustment waiting for the customer.',
    'zh-CN': '该商品已有一条待客户处理的调整。',
  },
  adjustmentNotPending: {
    en: 'This adjustment has already been adopted, rejected or superseded.',
    'zh-CN': '该调整已被采纳、拒绝或已失效。',
  },
  adjustmentOperatorOnlyCustomer: {
    en: 'Only the customer (or its agent) adopts or rejects an adjustment.',
    'zh-CN': '只有客户（或其代理）可以采纳或拒绝调整。',
  },
  itemImageEmpty: { en: 'The image file is empty (0 bytes).', 'zh-CN': '图片文件为空（0 字节）。' },
  itemImageTooLarge: {
    en: 'The image is larger than {mb} MB. Choose a smaller one.',
    'zh-CN': '图片大于 {mb} MB，请选择较小的图片。',
  },
  itemImageType: {
    en: 'The file is not a JPG or PNG image (checked by its content, not its name).',
    'zh-CN': '该文件不是 JPG 或 PNG 图片（按文件内容判断，而非文件名）。',
  },
  itemImageUnreadable: {
    en: 'The image is damaged or incomplete: its size cannot be read.',
    'zh-CN': '图片已损坏或不完整，无法读取尺寸。',
  },
  itemImageDimensions: {
    en: 'The image is {width}×{height} pixels; each side must be {min} to {max} pixels.',
    'zh-CN': '图片为 {width}×{height} 像素；每边须在 {min} 至 {max} 像素之间。',
  },
  itemImportNotFound: { en: 'Item import not found.', 'zh-CN': '商品导入记录不存在。' },
  itemImportNoRows: { en: 'The workbook has no item rows.', 'zh-CN': '工作簿中没有商品行。' },
  itemImportMissingColumns: {
    en: 'Required columns are missing: {columns}. Download the item template and copy the rows into it.',
    'zh-CN': '缺少必填列：{columns}。请下载商品导入模板并把数据复制进去。',
  },
  itemImportJanRepeated: {
    en: 'This JAN appears more than once in the workbook (rows {rows}): keep one row.',
    'zh-CN': '该 JAN 码在工作簿中出现多次（第 {rows} 行），请只保留一行。',
  },
  itemImportExpired: {
    en: 'This preview was not confirmed within {minutes} minutes and has expired. Upload the workbook again.',
    'zh-CN': '该预览未在 {minutes} 分钟内确认，已失效，请重新上传工作簿。',
  },
  itemImportNotPreview: {
    en: 'This import is no longer waiting for confirmation.',
    'zh-CN': '该导入已不在待确认状态。',
  },
  itemImportNothingValid: {
    en: 'No row of this workbook is valid: fix the rows in the error workbook and upload it again.',
    'zh-CN': '该工作簿没有有效的行，请修改错误工作簿中的行后重新上传。',
  },
  itemImportJansTaken: {
    en: 'Items with these JANs were added to the catalogue after the preview: {value}. Nothing was imported; upload the workbook again.',
    'zh-CN': '预览之后商品库中已加入这些 JAN 码的商品：{value}。本次未导入任何商品，请重新上传工作簿。',
  },
  itemImportFileGone: {
    en: 'The uploaded file is no longer available on the server. Nothing was imported; upload the workbook again.',
    'zh-CN': '上传的文件在服务器上已不存在，未导入任何商品，请重新上传工作簿。',
  },
  itemImportInterrupted: {
    en: 'The import was interrupted (the server stopped). Nothing was imported; upload the workbook again.',
    'zh-CN': '导入被中断（服务器已停止），未导入任何商品，请重新上传工作簿。',
  },
  itemImportNoErrorWorkbook: { en: 'This import has no failed rows.', 'zh-CN': '该导入没有错误的行。' },
} as const satisfies Catalogue;
