import type { ApiLanguage } from '@console/contract';
import { maskName, maskPhone } from '../../lib/mask.ts';
import { translate } from '../../lib/messages.ts';
import { chinaTime } from '../../lib/screen-values.ts';
import type { WorkbookJob } from '../../lib/workbook-job.ts';
import type { WorkbookRow } from '../../lib/workbook-writer.ts';
import { fromMinor } from '../orders/index.ts';
// The status labels of the order list; the worker imports this module alone.

/**
 * The batch downloads (one batch, or every batch of a period): one row per order item, in
 * the words, units and times of the screen (issue 11 #12) — status labels, prices in the
 * currency's units beside the currency, UTC+8 times, and names and phones masked as the
 * Order List and its export mask them.
 */
const COLUMNS: [zh: string, en: string, width: number][] = [
  ['批次号', 'Batch number', 18],
  ['订单号', 'Order number', 18],
  ['运单号', 'Waybill number', 18],
  ['系统单号', 'System number', 18],
  ['渠道', 'Channel', 8],
  ['状态', 'Status', 10],
  ['箱号', 'Box number', 10],
  ['收件人', 'Recipient', 10],
  ['电话', 'Phone', 14],
  ['省份', 'Province', 10],
  ['城市', 'City', 10],
  ['区县', 'District', 10],
  ['详细地址', 'Address', 24],
  ['JAN', 'JAN', 15],
  ['商品名称', 'Item', 24],
  ['数量', 'Quantity', 8],
  ['单价', 'Unit price', 10],
  ['币种', 'Currency', 8],
  ['创建时间 (UTC+8)', 'Created (UTC+8)', 20],
];

/** The unit price's column (1-based). */
const PRICE_COLUMN = COLUMNS.findIndex(([zh]) => zh === '单价') + 1;

/** A row of `BatchesRepository.ordersForExport`. */
export interface BatchOrderExportRow {
  batch_no: string;
  order_no: string;
  waybill_no: string | null;
  system_no: string;
  channel_code: string;
  status: string;
  box_no: string | null;
  recipient_name: string;
  recipient_phone: string;
  recipient_province: string;
  recipient_city: string;
  recipient_district: string;
  recipient_address: string;
  created_at: string;
  jan: string | null;
  item_name: string | null;
  quantity: number | null;
  unit_price: number | string | null;
  currency: string | null;
}

/** What the worker's row function is given: the language and each currency's minor-unit digits. */
export interface BatchOrderExportArg {
  lang: ApiLanguage;
  decimals: Record<string, number>;
}

/** One database row → its cells (run in the workbook worker). */
export function batchOrderExportRow(r: BatchOrderExportRow, { lang, decimals }: BatchOrderExportArg): WorkbookRow {
  const digits = r.currency ? (decimals[r.currency] ?? 2) : 0;
  const price = r.unit_price === null || r.unit_price === undefined ? null : Number(fromMinor(r.unit_price, digits));
  const values = [
    r.batch_no,
    r.order_no,
    r.waybill_no,
    r.system_no,
    r.channel_code,
    translate(lang, `status.${r.status}`),
    r.box_no,
    maskName(r.recipient_name),
    maskPhone(r.recipient_phone),
    r.recipient_province,
    r.recipient_city,
    r.recipient_district,
    r.recipient_address,
    r.jan,
    r.item_name,
    r.quantity,
    price,
    r.currency,
    chinaTime(r.created_at),
  ];
  // A number Excel can add up, shown with the currency's decimals as on screen ("12.50", "1200").
  return price === null
    ? values
    : { values, styles: { [PRICE_COLUMN]: { numFmt: digits ? `0.${'0'.repeat(digits)}` : '0' } } };
}

/** The workbook job of a compiled `BatchesRepository.ordersForExport` query. */
export function batchOrdersJob(query: WorkbookJob['query'], arg: BatchOrderExportArg): WorkbookJob {
  const zh = arg.lang !== 'en';
  return {
    sheet: {
      name: zh ? '订单' : 'Orders',
      boldHeader: true,
      columns: COLUMNS.map(([z, e, width]) => ({ header: zh ? z : e, width })),
    },
    query,
    mapper: { kind: 'batch-orders', arg },
  };
}
