import type { ApiLanguage } from '@console/contract';
import { maskName } from '../../lib/mask.ts';
import { translate } from '../../lib/messages.ts';
import type { WorkbookJob } from '../../lib/workbook-job.ts';
import type { WorkbookRow } from '../../lib/workbook-writer.ts';
import { fromMinor } from '../orders/index.ts';
// The worker imports this module alone: the findings' messages must be registered here.
import type { StoredFinding } from './order-reviews.checks.ts';

/**
 * The review's result workbook: one row per order item, with the catalogue's status and
 * price beside the sheet's, and the findings of the item and of its order in the reader's
 * language; the operator's remarks on every row (a customer filters and sorts the sheet).
 */
const COLUMNS: [zh: string, en: string, width: number][] = [
  ['审核单号', 'Review number', 20],
  ['审核状态', 'Review status', 10],
  ['订单号', 'Order number', 18],
  ['渠道', 'Channel', 8],
  ['收件人', 'Recipient', 10],
  ['JAN', 'JAN', 15],
  ['商品名称', 'Item', 24],
  ['数量', 'Quantity', 8],
  ['单价', 'Unit price', 10],
  ['币种', 'Currency', 8],
  ['商品库状态', 'Catalogue', 12],
  ['申报清关价格 (CNY)', 'Declared clearance price (CNY)', 14],
  ['商品问题', 'Item findings', 40],
  ['订单问题', 'Order findings', 40],
  ['审核备注', 'Remarks', 30],
];

export interface ReviewExportRow {
  review_no: string;
  status: number;
  remarks: string | null;
  order_no: string;
  channel: string;
  recipient_name: string;
  order_findings: string;
  jan: string | null;
  name: string;
  quantity: number;
  unit_price: number | string;
  currency: string;
  catalogue: string;
  clearance_price: string | null;
  item_findings: string;
}

export interface ReviewExportArg {
  lang: ApiLanguage;
  decimals: Record<string, number>;
}

/** Stored findings → one line in the reader's language. */
export function findingsText(lang: ApiLanguage, stored: string): string | null {
  const list = JSON.parse(stored) as StoredFinding[];
  if (!list.length) return null;
  return list.map((f) => translate(lang, f.key, f.params)).join(lang === 'en' ? '; ' : '；');
}

/** One database row → its cells (run in the workbook worker). */
export function reviewExportRow(r: ReviewExportRow, { lang, decimals }: ReviewExportArg): WorkbookRow {
  const digits = decimals[r.currency] ?? 2;
  return {
    values: [
      r.review_no,
      translate(lang, `reviewStatus_${r.status}`),
      r.order_no,
      r.channel,
      maskName(r.recipient_name),
      r.jan,
      r.name,
      Number(r.quantity),
      Number(fromMinor(r.unit_price, digits)),
      r.currency,
      translate(lang, `reviewCatalogue_${r.catalogue}`),
      r.clearance_price === null ? null : Number(r.clearance_price),
      findingsText(lang, r.item_findings),
      findingsText(lang, r.order_findings),
      r.remarks,
    ],
    styles: { 9: { numFmt: digits ? `0.${'0'.repeat(digits)}` : '0' }, 12: { numFmt: '0.00' } },
  };
}

export function reviewItemsJob(query: WorkbookJob['query'], arg: ReviewExportArg): WorkbookJob {
  const zh = arg.lang !== 'en';
  return {
    sheet: {
      name: zh ? '审核结果' : 'Review result',
      boldHeader: true,
      frozenHeader: true,
      columns: COLUMNS.map(([z, e, width]) => ({ header: zh ? z : e, width })),
    },
    query,
    mapper: { kind: 'order-reviews', arg },
  };
}
