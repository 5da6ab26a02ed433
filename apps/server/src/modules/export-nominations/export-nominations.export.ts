import type { ApiLanguage } from '@console/contract';
import type { WorkbookJob } from '../../lib/workbook-job.ts';
import type { WorkbookRow } from '../../lib/workbook-writer.ts';
import { chinaTime } from '../../lib/screen-values.ts';

/**
 * The export nominations workbook (`export/export`): one row per nomination, the columns of
 * the list in the reader's language, times as the console shows them (UTC+8).
 */
const COLUMNS: [zh: string, en: string, width: number][] = [
  ['客户', 'Customer', 10],
  ['日文名称', 'Japanese name', 28],
  ['英文名称', 'English name', 28],
  ['法人番号', 'Corporate number', 16],
  ['英文地址', 'English address', 40],
  ['电话', 'Tel', 16],
  ['ID 标识', 'ID mark', 12],
  ['接收邮箱', 'Receive email', 28],
  ['创建时间', 'Created', 20],
  ['修改时间', 'Updated', 20],
];

export interface NominationExportRow {
  customer_code: string;
  name_ja: string;
  name_en: string;
  corporate_number: string;
  address_en: string;
  tel: string;
  id_mark: string;
  receive_email: string;
  created_at: string | Date;
  updated_at: string | Date | null;
}

const iso = (t: string | Date | null) => (t === null ? null : new Date(t).toISOString());

/** One database row → its cells (run in the workbook worker). The corporate number stays text. */
export function nominationExportRow(r: NominationExportRow): WorkbookRow {
  return [
    r.customer_code,
    r.name_ja,
    r.name_en,
    r.corporate_number,
    r.address_en,
    r.tel,
    r.id_mark || null,
    r.receive_email || null,
    chinaTime(iso(r.created_at)),
    chinaTime(iso(r.updated_at)),
  ];
}

export function nominationsJob(query: WorkbookJob['query'], lang: ApiLanguage): WorkbookJob {
  const zh = lang !== 'en';
  return {
    sheet: {
      name: zh ? '出口抬头' : 'Export nominations',
      boldHeader: true,
      frozenHeader: true,
      columns: COLUMNS.map(([z, e, width]) => ({ header: zh ? z : e, width })),
    },
    query,
    mapper: { kind: 'export-nominations' },
  };
}
