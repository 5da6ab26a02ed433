import type { ApiLanguage } from '@console/contract';
import type { CompiledQuery } from 'kysely';
import { chinaTime } from '../../lib/screen-values.ts';
import type { WorkbookJob } from '../../lib/workbook-job.ts';
import type { WorkbookRow } from '../../lib/workbook-writer.ts';
import { fromMinor } from '../../domain/pricing/index.ts';

/**
 * A statement's workbook (`bill/downloadXlsx`): one row per line, then a total row per currency
 * and the total in CNY. Amounts are decimal text of their currency (exact, as the page shows them).
 */
const COLUMNS: [zh: string, en: string, width: number][] = [
  ['时间', 'Time', 20],
  ['类型', 'Kind', 14],
  ['订单号', 'Order no.', 22],
  ['重量 (g)', 'Weight (g)', 10],
  ['金额', 'Amount', 14],
  ['币种', 'Currency', 8],
  ['说明', 'Reason', 30],
];

const KINDS: Record<string, [string, string]> = {
  freight: ['运费', 'Freight'],
  remote: ['偏远附加费', 'Remote area'],
  storage: ['仓储费', 'Storage'],
  tax: ['税费（代收）', 'Tax (pass-through)'],
  interception: ['拦截费', 'Interception'],
  relabel: ['换标费', 'Relabel'],
  adjustment: ['调整', 'Adjustment'],
};

export interface StatementArg {
  zh: boolean;
  decimals: Record<string, number>;
  totalCny: string;
}

/** One database row → its cells (run in the workbook worker). */
export function statementRow(r: Record<string, unknown>, a: StatementArg): WorkbookRow {
  const part = Number(r.part);
  const cur = r.currency as string | null;
  const amount =
    r.amount_minor == null || !cur ? null : fromMinor(BigInt(r.amount_minor as string), a.decimals[cur] ?? 2);
  if (part === 2)
    return { values: [a.zh ? '合计（人民币）' : 'Total (CNY)', null, null, null, a.totalCny, 'CNY', null], bold: true };
  if (part === 1) return { values: [a.zh ? '合计' : 'Total', null, null, null, amount, cur, null], bold: true };
  const kind = KINDS[r.kind as string];
  return [
    chinaTime(new Date(r.at as string).toISOString()),
    kind ? kind[a.zh ? 0 : 1] : r.kind,
    r.order_no ?? null,
    r.weight_g ?? null,
    amount,
    cur,
    r.reason ?? null,
  ];
}

export function statementJob(
  query: CompiledQuery,
  lang: ApiLanguage,
  arg: Omit<StatementArg, 'zh'>,
  period: string,
): WorkbookJob {
  const zh = lang !== 'en';
  return {
    sheet: {
      name: zh ? `账单 ${period}` : `Bill ${period}`,
      boldHeader: true,
      frozenHeader: true,
      columns: COLUMNS.map(([z, e, width]) => ({ header: zh ? z : e, width })),
    },
    query,
    mapper: { kind: 'bills', arg: { ...arg, zh } },
  };
}
