/**
 * A page's `total` without counting when the page itself shows where the matches end: a page
 * that is not full, and is not past the end, holds the last match, so the total is its offset
 * plus its rows. Only a full page (or an empty one past the end) needs `count()`. A search that
 * must read every row (a `contains` filter) then reads them once, not twice, when it finds
 * fewer than a page: the audit log's target search at 200,000 rows (bench:lists).
 */
export async function pageTotal(
  offset: number,
  limit: number,
  rows: number,
  count: () => Promise<number>,
): Promise<number> {
  if (rows < limit && (rows > 0 || offset === 0)) return offset + rows;
  return count();
}
