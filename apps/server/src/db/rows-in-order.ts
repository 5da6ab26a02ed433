/**
 * The second half of a deferred join (a list page's ids found on an index first, then their
 * rows read by id): reads the rows of `ids` with `load` and gives them back in the ids' order,
 * which the read by id does not keep. No ids, no read.
 */
export async function rowsInOrder<R extends { id: number }>(
  ids: readonly { id: number }[],
  load: (ids: number[]) => Promise<R[]>,
): Promise<R[]> {
  if (!ids.length) return [];
  const rows = await load(ids.map((r) => r.id));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((r) => byId.get(r.id)!);
}
