import { type ApiLanguage, meituan as C } from '@console/contract';
import { chinaTime } from '../../lib/screen-values.ts';
import type { WorkbookJob } from '../../lib/workbook-job.ts';
import type { WorkbookRow } from '../../lib/workbook-writer.ts';

/**
 * The Meituan export (`meituan_reservation_order/export`): one row per item, the template's
 * columns first (so a sheet can be read back the same way), then the status, location, batch,
 * customer and times as the console shows them (UTC+8). Run in the workbook worker.
 */
const EXTRA: [zh: string, en: string, width: number][] = [
  ['状态', 'Status', 14],
  ['操作地点', 'Operation location', 18],
  ['批次号', 'Batch number', 24],
  ['客户', 'Customer', 10],
  ['上传时间', 'Uploaded', 20],
  ['完成时间', 'Completed', 20],
];
const STATUS = { zh: ['待操作', '已完成'], en: ['Pending operation', 'Completed'] };

export interface MeituanExportRow {
  system_no: string;
  meituan_no: string;
  express_no: string;
  order_ref: string;
  barcode: string;
  item_name: string;
  specs: string | null;
  price_fen: number | string;
  count: number;
  receiver_name: string;
  receiver_address: string;
  receiver_phone: string;
  status: number;
  operation_location: string;
  batch_number: string;
  customer_code: string;
  created_at: string | Date;
  completed_at: string | Date | null;
}

const iso = (t: string | Date | null) => (t === null ? null : new Date(t).toISOString());

export function meituanExportRow(r: MeituanExportRow, lang: unknown): WorkbookRow {
  const zh = lang !== 'en';
  const fen = Number(r.price_fen);
  const location = C.MEITUAN_LOCATIONS[r.operation_location as C.MeituanLocation];
  return [
    r.system_no,
    r.meituan_no,
    r.express_no,
    r.order_ref,
    r.barcode,
    r.item_name,
    r.specs,
    `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`,
    Number(r.count),
    r.receiver_name,
    r.receiver_address,
    r.receiver_phone,
    (zh ? STATUS.zh : STATUS.en)[Number(r.status)] ?? String(r.status),
    location ? (zh ? location.zh : location.en) : r.operation_location,
    r.batch_number,
    r.customer_code,
    chinaTime(iso(r.created_at)),
    chinaTime(iso(r.completed_at)),
  ];
}

export function meituanColumns(lang: ApiLanguage) {
  const zh = lang !== 'en';
  return [
    ...C.MEITUAN_COLUMNS.map((c) => ({ header: zh ? c.zh : c.en, width: c.width })),
    ...EXTRA.map(([z, e, width]) => ({ header: zh ? z : e, width })),
  ];
}

export function meituanJob(query: WorkbookJob['query'], lang: ApiLanguage): WorkbookJob {
  return {
    sheet: {
      name: lang === 'en' ? 'Meituan orders' : '美团预约单',
      boldHeader: true,
      frozenHeader: true,
      columns: meituanColumns(lang),
    },
    query,
    mapper: { kind: 'meituan', arg: lang },
  };
}
