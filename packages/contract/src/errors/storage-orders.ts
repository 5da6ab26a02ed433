import type { Catalogue } from './catalogue.ts';

/**
 * Messages of inbound storage and outbound shipping, in both API languages. The order's own
 * refusals (already received, intercepted, cancelled, not received yet, an error order) are the
 * order-life module's keys (domain/order-life.ts), stored on the line as they came.
 */
export const storageOrdersMessages = {
  storageReceived: { en: 'Order {orderNo} received.', 'zh-CN': '订单 {orderNo} 已入库。' },
  storageNotFound: { en: 'No order has waybill {code}.', 'zh-CN': '没有运单号为 {code} 的订单。' },
  // Spec §5 (the last wins): an earlier line of a waybill entered again below it.
  storageRepeatedBelow: {
    en: 'Waybill {code} is entered again further down; the last line counts.',
    'zh-CN': '运单号 {code} 在下方再次录入，以最后一行为准。',
  },
  shipRepeatedBelow: {
    en: 'Order {orderNo} is entered again further down; the last line counts.',
    'zh-CN': '订单 {orderNo} 在下方再次录入，以最后一行为准。',
  },
  storageDuplicate: {
    en: 'Waybill {code} is already in this entry.',
    'zh-CN': '运单号 {code} 在本次录入中重复。',
  },
  storageOtherCustomer: {
    en: "Order {orderNo} is not of this storage order's customer.",
    'zh-CN': '订单 {orderNo} 不属于本入库单的客户。',
  },
  storageBadWeight: {
    en: 'The gross weight of waybill {code} (column B) is not a whole number of grams from 1 to 100,000.',
    'zh-CN': '运单号 {code} 的毛重（B 列）不是 1 至 100,000 之间的整数克数。',
  },
  storagePreAlerted: {
    en: 'Order {orderNo} is pre-alerted: the warehouse receives and weighs it.',
    'zh-CN': '订单 {orderNo} 已预报，由仓库入库并称重。',
  },
  storageOrderOtherKind: {
    en: "Warehouse receipts and customers' pre-alerts cannot be added to each other's storage orders.",
    'zh-CN': '仓库入库与客户预报不能追加到彼此的入库单。',
  },
  reweighOrderNotFound: { en: 'Order not found.', 'zh-CN': '订单不存在。' },
  reweighNotReceived: {
    en: 'Only a received order can be re-weighed.',
    'zh-CN': '只有已入库的订单才能复重。',
  },
  storageOrderNotFound: { en: 'Storage order not found.', 'zh-CN': '入库单不存在。' },
  storageOrderNotEntry: {
    en: 'Waybills can only be added to a storage order made by entry, not by Excel.',
    'zh-CN': '只能向录入方式的入库单追加运单，Excel 入库单不能追加。',
  },
  storageNoWaybills: {
    en: 'The sheet holds no waybill numbers (column A).',
    'zh-CN': '表格中没有运单号（A 列）。',
  },
  storageTooManyRows: {
    en: 'The sheet holds more than {max} waybill numbers: split it.',
    'zh-CN': '表格中的运单号超过 {max} 个，请拆分后上传。',
  },
  storageCustomerUnknown: { en: 'This customer does not exist.', 'zh-CN': '该客户不存在。' },
  storageOrigin_pickup: { en: 'Pickup', 'zh-CN': '上门取件' },
  storageOrigin_selfSend: { en: 'Self-send', 'zh-CN': '自寄' },
  storageOrigin_counter: { en: 'Counter', 'zh-CN': '柜台' },
  storageErrorsSheet: { en: 'Refused', 'zh-CN': '入库失败' },
  storageErrorsName: { en: 'storage-errors', 'zh-CN': '入库失败明细' },
  storageWaybillColumn: { en: 'Waybill number', 'zh-CN': '运单号' },
  storageReasonColumn: { en: 'Reason', 'zh-CN': '原因' },
  storageRowColumn: { en: 'Row', 'zh-CN': '行号' },

  shipShipped: { en: 'Order {orderNo} shipped.', 'zh-CN': '订单 {orderNo} 已出库。' },
  shipNotFound: { en: 'No order has waybill {code}.', 'zh-CN': '没有运单号为 {code} 的订单。' },
  shipmentNotFound: { en: 'Shipment not found.', 'zh-CN': '出库单不存在。' },
  shipmentNotSingle: {
    en: 'Scanned orders can only join a shipment made by scanning.',
    'zh-CN': '扫描出库只能加入扫描创建的出库单。',
  },
  shipNothing: { en: 'Choose or enter the orders to ship.', 'zh-CN': '请选择或输入要出库的订单。' },
  manifestSheet: { en: 'Manifest', 'zh-CN': '出库清单' },
  manifestName: { en: 'manifest', 'zh-CN': '出库清单' },
  manifestWaybill: { en: 'Waybill number', 'zh-CN': '运单号' },
  manifestOrderNo: { en: 'Order number', 'zh-CN': '订单号' },
  manifestCustomer: { en: 'Customer', 'zh-CN': '客户' },
  manifestCity: { en: 'Recipient city', 'zh-CN': '收件城市' },
  manifestWeight: { en: 'Weight (kg)', 'zh-CN': '重量 (kg)' },
  manifestItemCount: { en: 'Pieces', 'zh-CN': '件数' },
  manifestItems: { en: 'Items', 'zh-CN': '商品' },
  manifestValue: { en: 'Declared value', 'zh-CN': '申报价值' },
  manifestCurrency: { en: 'Currency', 'zh-CN': '币种' },
} as const satisfies Catalogue;
