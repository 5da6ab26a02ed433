/**
 * Print by order number, the pure part: numbers typed, scanned or pasted become lines, each
 * looked up with `order/search` and marked found (with the server's row), refused (the order
 * life would not print it) or not found; printing marks lines printed or refused.
 */
import { type orders, splitPastedNumbers } from '@console/contract';
import { printRefusal } from '@/components/printing/settings.ts';

export type Found = orders.OrderRow & { matched: string };
export type Line =
  | { number: string; state: 'looking' }
  | { number: string; state: 'notFound' }
  | { number: string; state: 'found'; order: Found }
  /** `reasonKey`: a message key of this feature; `reason`: the server's own words. */
  | { number: string; state: 'refused'; order: Found; reasonKey?: string; reason?: string }
  | { number: string; state: 'printed'; order: Found; printer: string }
  | { number: string; state: 'failed'; order: Found; reason: string };

/** The numbers in what was typed or pasted (spaces, new lines, commas), each once: the contract's one rule (spec §5, the last wins). */
export const splitNumbers = splitPastedNumbers;

/** New numbers added to the lines: the ones already there are not looked up again. */
export function addNumbers(lines: readonly Line[], numbers: readonly string[]): { lines: Line[]; added: string[] } {
  const have = new Set(lines.map((l) => l.number));
  const added = numbers.filter((n) => !have.has(n) && (have.add(n), true));
  return { lines: [...lines, ...added.map((number) => ({ number, state: 'looking' }) as Line)], added };
}

/**
 * The search's answer applied to the lines still looking: a number found by several kinds at
 * once (an order number that is also another order's reference) takes the order whose order
 * number it is, else the first found.
 */
export function applySearch(
  lines: readonly Line[],
  found: readonly (orders.OrderRow & { matched: string; matchedBy: string })[],
): Line[] {
  return lines.map((l) => {
    if (l.state !== 'looking') return l;
    const hits = found.filter((f) => f.matched === l.number);
    const hit = hits.find((f) => f.matchedBy === 'orderNo') ?? hits[0];
    if (!hit) return { number: l.number, state: 'notFound' };
    const key = printRefusal(hit);
    return key
      ? { number: l.number, state: 'refused', order: hit, reasonKey: key }
      : { number: l.number, state: 'found', order: hit };
  });
}

/** The lines that would print now: found, or failed at the agent (try again), one line per order. */
export function printable(lines: readonly Line[]): Found[] {
  const seen = new Set<number>();
  const out: Found[] = [];
  for (const l of lines)
    if ((l.state === 'found' || l.state === 'failed' || l.state === 'printed') && !seen.has(l.order.id)) {
      seen.add(l.order.id);
      out.push(l.order);
    }
  return out;
}
