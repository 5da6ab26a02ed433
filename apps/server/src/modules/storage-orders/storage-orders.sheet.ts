import { storageOrders as C } from '@console/contract';

/** Trimmed, upper case: how waybills are stored and scanned. */
export const normalCode = (s: string) => s.trim().toUpperCase();

/** A row of a storage sheet: its waybill, and its gross weight (column B) or why that was refused. */
export interface SheetWaybill {
  code: string;
  row: number;
  weightG: number | null;
  badWeight?: true;
}

/**
 * Column B's gross weight: empty is none; otherwise whole grams 1..100,000 ("1200" or "1200.0" as
 * a spreadsheet may write a number); anything else is refused, never guessed (a "1,2" or "1.2kg"
 * would be a wrong freight).
 */
export function weightOfCell(cell: string | undefined): { weightG: number | null } | { bad: true } {
  const v = (cell ?? '').trim();
  if (!v) return { weightG: null };
  const m = /^(\d{1,9})(?:\.0*)?$/.exec(v);
  const n = m ? Number(m[1]) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= C.GROSS_WEIGHT_MAX_G ? { weightG: n } : { bad: true };
}

/** Waybills read off column A (weights off B); the first row is a header when A holds no digit ("运单号", "Waybill"). */
export function waybillsOfSheet(rows: { row: number; cells: string[] }[]) {
  const out: SheetWaybill[] = [];
  for (const r of rows) {
    const v = normalCode(r.cells[0] ?? '');
    if (!v) continue;
    if (!out.length && r.row === rows[0]!.row && !/\d/.test(v)) continue;
    const w = weightOfCell(r.cells[1]);
    out.push({
      code: v.slice(0, 64),
      row: r.row,
      ...('bad' in w ? { weightG: null, badWeight: true as const } : { weightG: w.weightG }),
    });
  }
  return out;
}
