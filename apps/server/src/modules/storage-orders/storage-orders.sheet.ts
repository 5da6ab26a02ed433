/** Trimmed, upper case: how waybills are stored and scanned. */
export const normalCode = (s: string) => s.trim().toUpperCase();

/** Waybills read off column A; the first row is a header when it holds no digit ("运单号", "Waybill"). */
export function waybillsOfSheet(rows: { row: number; cells: string[] }[]) {
  const out: { code: string; row: number }[] = [];
  for (const r of rows) {
    const v = normalCode(r.cells[0] ?? '');
    if (!v) continue;
    if (!out.length && r.row === rows[0]!.row && !/\d/.test(v)) continue;
    out.push({ code: v.slice(0, 64), row: r.row });
  }
  return out;
}
