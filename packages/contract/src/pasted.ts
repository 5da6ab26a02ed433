/**
 * Spec §5: "For duplicate order numbers in pasted text, the last wins." One rule wherever numbers
 * are pasted or listed (issue 28 #18): order search, print by number, storage entry, outbound, and
 * the sheets of the batch import, which always followed it. Each number is kept once, at the place
 * of its last occurrence and with what that line carries (a storage line's weight).
 */
export function lastWins<T>(entries: readonly T[], keyOf: (entry: T) => string): T[] {
  const last = lastPlaces(entries, keyOf);
  return entries.filter((e, i) => last.get(keyOf(e)) === i);
}

/**
 * Each number's last place: where a list keeps its lines and reports the earlier repeats (a
 * storage entry's duplicates), the entry at i wins when `lastPlaces(...).get(key) === i`.
 */
export function lastPlaces<T>(entries: readonly T[], keyOf: (entry: T) => string): Map<string, number> {
  const last = new Map<string, number>();
  entries.forEach((e, i) => last.set(keyOf(e), i));
  return last;
}

/** What separates pasted numbers: new lines, spaces, tabs, commas and semicolons (full-width too). */
export const PASTE_SEPARATORS = /[\s,;，；]+/u;

/** The numbers of a pasted text, blanks dropped, each once where it last comes. */
export function splitPastedNumbers(text: string): string[] {
  return lastWins(
    text
      .split(PASTE_SEPARATORS)
      .map((s) => s.trim())
      .filter(Boolean),
    (s) => s,
  );
}
