import { storageOrders as S } from '@console/contract';

/** A gross weight typed or sent by a scale: whole grams within the contract's range, else null. */
export const validWeight = (v: number | null) =>
  v !== null && Number.isInteger(v) && v >= 1 && v <= S.GROSS_WEIGHT_MAX_G ? v : null;

/**
 * "waybill weight" lines (space or comma between): the waybills and their parallel weights, or
 * the first line that is neither a waybill alone nor a waybill and whole grams.
 */
export type Pasted =
  { bad: { n: number; line: string } } | { waybillNos: string[]; grossWeightsG: (number | null)[] | undefined };

export function parsePasted(text: string): Pasted {
  const waybillNos: string[] = [];
  const weights: (number | null)[] = [];
  const rows = text.split(/\r?\n/);
  for (const [i, raw] of rows.entries()) {
    const line = raw.trim();
    if (!line) continue;
    const parts = line.split(/[\s,，]+/).filter(Boolean);
    const weight = parts[1] === undefined ? null : /^\d+$/.test(parts[1]) ? validWeight(Number(parts[1])) : null;
    if (parts.length > 2 || parts[0]!.length > 64 || (parts[1] !== undefined && weight === null))
      return { bad: { n: i + 1, line } };
    waybillNos.push(parts[0]!);
    weights.push(weight);
  }
  return { waybillNos, grossWeightsG: weights.some((w) => w !== null) ? weights : undefined };
}
