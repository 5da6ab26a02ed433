/**
 * The one data-driven definition of every template kind: both the template
 * generator and the parser read it, so they can never disagree. A column is
 * found by its header (Chinese, English or key), not by its position.
 */
export type ColumnType = 'text' | 'int' | 'money' | 'code';
export type ListName = 'channel' | 'currency' | 'clearanceCompany' | 'province' | 'orderType';

export interface ColumnDef {
  key: string;
  zh: string;
  en: string;
  type: ColumnType;
  required: boolean;
  /** An order-level column (the same for every row of a multi-item order) vs. an item column. */
  level: 'order' | 'item';
  /** Drop-down list of coded values. */
  list?: ListName;
  help: { zh: string; en: string };
  example: string;
  width?: number;
}

const c = (
  key: string,
  zh: string,
  en: string,
  type: ColumnType,
  required: boolean,
  level: 'order' | 'item',
  help: [string, string],
  example: string,
  extra: Partial<ColumnDef> = {},
): ColumnDef => ({ key, zh, en, type, required, level, help: { zh: help[0], en: help[1] }, example, ...extra });

export const COLUMNS = {
  channel: c(
    'channel',
    '渠道',
    'Channel',
    'code',
    true,
    'order',
    ['渠道代码，从下拉列表选择。', 'Channel code, from the drop-down.'],
    'JP',
    { list: 'channel' },
  ),
  orderNo: c(
    'orderNo',
    '订单号',
    'Order No.',
    'text',
    true,
    'order',
    [
      '必填。多件商品的订单：多行使用同一订单号（连续排列）。同一订单号在表中出现多次时以最后一次为准。',
      'Required. Multi-item orders: several consecutive rows with the same order number. If an order number appears again later, the last one wins.',
    ],
    'DM20260001',
    { width: 18 },
  ),
  boxNo: c(
    'boxNo',
    '箱号',
    'Box No.',
    'text',
    true,
    'order',
    ['必填。同一箱的订单填写同一箱号。', 'Required. Orders packed in one box share the box number.'],
    'BOX-001',
  ),
  userRefNo: c(
    'userRefNo',
    '用户参考号',
    'User Ref. No.',
    'text',
    false,
    'order',
    ['可选，您自己的参考号。', 'Optional, your own reference.'],
    'REF-1',
  ),
  orderType: c(
    'orderType',
    '订单类型',
    'Order Type',
    'code',
    false,
    'order',
    ['可选，默认普通订单。', 'Optional; normal by default.'],
    'normal',
    { list: 'orderType' },
  ),
  clearanceCompany: c(
    'clearanceCompany',
    '清关公司',
    'Clearance Company',
    'code',
    false,
    'order',
    ['可选；为空时使用页面上选择的清关公司。', 'Optional; empty uses the company chosen on the page.'],
    'HZ-CB',
    { list: 'clearanceCompany' },
  ),
  recipientName: c(
    'recipientName',
    '收件人姓名',
    'Recipient Name',
    'text',
    true,
    'order',
    ['必填，与身份证一致。', 'Required, as on the ID card.'],
    '王伟',
  ),
  recipientPhone: c(
    'recipientPhone',
    '收件人电话',
    'Recipient Phone',
    'text',
    true,
    'order',
    ['必填。', 'Required.'],
    '13800138000',
    { width: 16 },
  ),
  recipientIdCard: c(
    'recipientIdCard',
    '收件人身份证号',
    'Recipient ID Card',
    'text',
    true,
    'order',
    [
      '必填，18 位，校验位与出生日期须正确；未成年人需确认。',
      'Required, 18 characters; check digit and birth date must be right; minors need confirmation.',
    ],
    '11010519491231002X',
    { width: 22 },
  ),
  recipientProvince: c(
    'recipientProvince',
    '省份',
    'Province',
    'text',
    true,
    'order',
    ['必填，从下拉列表选择。', 'Required, from the drop-down.'],
    '北京市',
    { list: 'province' },
  ),
  recipientCity: c(
    'recipientCity',
    '城市',
    'City',
    'text',
    true,
    'order',
    ['必填，须属于该省份。', 'Required, must belong to the province.'],
    '北京市',
  ),
  recipientDistrict: c(
    'recipientDistrict',
    '区县',
    'District',
    'text',
    true,
    'order',
    ['必填，须属于该城市。', 'Required, must belong to the city.'],
    '朝阳区',
  ),
  recipientAddress: c(
    'recipientAddress',
    '详细地址',
    'Address',
    'text',
    true,
    'order',
    ['必填。', 'Required.'],
    '建国路 88 号',
    { width: 28 },
  ),
  recipientPostcode: c(
    'recipientPostcode',
    '邮编',
    'Postal Code',
    'text',
    false,
    'order',
    ['可选，6 位数字。', 'Optional, 6 digits.'],
    '100020',
  ),
  senderName: c('senderName', '发件人', 'Sender Name', 'text', false, 'order', ['可选。', 'Optional.'], 'DEMO Trading'),
  senderPhone: c(
    'senderPhone',
    '发件人电话',
    'Sender Phone',
    'text',
    false,
    'order',
    ['可选。', 'Optional.'],
    '03-1234-5678',
  ),
  senderAddress: c(
    'senderAddress',
    '发件人地址',
    'Sender Address',
    'text',
    false,
    'order',
    ['可选。', 'Optional.'],
    '1-10-1 Nagatacho, Tokyo',
    { width: 24 },
  ),
  jan: c(
    'jan',
    'JAN',
    'JAN',
    'text',
    false,
    'item',
    ['商品条码，EAN-13 或 EAN-8，校验位须正确。', 'Item barcode, EAN-13 or EAN-8 with a correct check digit.'],
    '4901234567894',
    { width: 16 },
  ),
  itemName: c('itemName', '商品名称', 'Item Name', 'text', true, 'item', ['必填。', 'Required.'], '资生堂 洗面奶', {
    width: 22,
  }),
  brand: c('brand', '品牌', 'Brand', 'text', false, 'item', ['可选。', 'Optional.'], 'Shiseido'),
  spec: c('spec', '规格', 'Specification', 'text', false, 'item', ['可选。', 'Optional.'], '120g'),
  quantity: c(
    'quantity',
    '数量',
    'Quantity',
    'int',
    true,
    'item',
    ['必填，正整数。', 'Required, a whole number.'],
    '2',
  ),
  unitPrice: c(
    'unitPrice',
    '单价',
    'Unit Price',
    'money',
    true,
    'item',
    [
      '必填，大于 0；按币种的小数位（日元无小数）。',
      'Required, greater than 0; decimals as the currency allows (none for JPY).',
    ],
    '1200',
  ),
  currency: c(
    'currency',
    '币种',
    'Currency',
    'code',
    false,
    'item',
    ['可选，默认渠道币种。', "Optional; the channel's currency by default."],
    'JPY',
    { list: 'currency' },
  ),
  origin: c(
    'origin',
    '原产国',
    'Origin',
    'text',
    false,
    'item',
    ['可选，国家代码，默认渠道发货国。', "Optional country code; the channel's origin by default."],
    'JP',
  ),
  hazardCode: c('hazardCode', '危险品代码', 'Hazard Code', 'text', false, 'item', ['可选。', 'Optional.'], ''),
  remark: c('remark', '备注', 'Remark', 'text', false, 'order', ['可选。', 'Optional.'], ''),
  waybillNo: c('waybillNo', '运单号', 'Waybill No.', 'text', true, 'order', ['必填。', 'Required.'], 'EE100000009JP', {
    width: 18,
  }),
} as const satisfies Record<string, ColumnDef>;

export type ColumnKey = keyof typeof COLUMNS;
