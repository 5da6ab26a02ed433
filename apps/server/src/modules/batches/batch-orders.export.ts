import type { ApiLanguage } from '@console/contract';
import type { WorkbookJob } from '../../lib/workbook-job.ts';

/** The columns of the batch downloads (one batch, or every batch of a period): one row per order item. */
const COLUMNS: [key: string, zh: string, en: string][] = [
  ['batch_no', '批次号', 'Batch No.'],
  ['order_no', '订单号', 'Order No.'],
  ['waybill_no', '运单号', 'Waybill No.'],
  ['system_no', '系统单号', 'System No.'],
  ['channel_code', '渠道', 'Channel'],
  ['status', '状态', 'Status'],
  ['box_no', '箱号', 'Box No.'],
  ['recipient_name', '收件人', 'Recipient'],
  ['recipient_phone', '电话', 'Phone'],
  ['recipient_province', '省份', 'Province'],
  ['recipient_city', '城市', 'City'],
  ['recipient_district', '区县', 'District'],
  ['recipient_address', '地址', 'Address'],
  ['jan', 'JAN', 'JAN'],
  ['item_name', '商品名称', 'Item'],
  ['quantity', '数量', 'Quantity'],
  ['unit_price', '单价（最小单位）', 'Unit price (minor units)'],
  ['currency', '币种', 'Currency'],
  ['created_at', '创建时间 (UTC)', 'Created (UTC)'],
];

/** The workbook job of a compiled `BatchesRepository.ordersForExport` query: the columns show the row's fields as stored. */
export function batchOrdersJob(query: WorkbookJob['query'], lang: ApiLanguage): WorkbookJob {
  const zh = lang === 'zh-CN';
  return {
    sheet: {
      name: 'orders',
      boldHeader: true,
      columns: COLUMNS.map(([key, z, e]) => ({ key, header: zh ? z : e, width: 16 })),
    },
    query,
  };
}
