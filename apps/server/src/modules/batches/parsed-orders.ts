import { createHash } from 'node:crypto';
import { type OrderInput, type PackedOrder, packOrder } from '../../domain/order-input.ts';
import { type WaybillGroup, waybillGroups } from '../../domain/order-writer.ts';

/**
 * A preview's parsed orders as they wait on disk for the confirm: newline-separated JSON, a
 * first line that counts them (in all and per waybill group), then the packed orders, up to
 * `ORDERS_PER_LINE` a line.
 *
 * The parse worker writes these bytes and hands them over without a copy: the main thread used
 * to receive the orders as structured clones and stringify them (0.6 s of one 100,000-order
 * preview, every other user's call waiting). The commit reads one line per chunk it writes, and
 * reserves the waybill numbers from the counts, not by reading every order first (0.4-0.7 s).
 */
export const ORDERS_PER_LINE = 2000;

interface Head {
  orders: number;
  /** [channel, customerId, numberSegmentId, count]: arrays, as the orders are. */
  waybills: [string, number, number | null, number][];
}

/** The stored form of these orders and its SHA-256 (computed where the bytes are made). */
export function encodeParsedOrders(orders: readonly OrderInput[]): { data: Buffer; sha256: string } {
  const head: Head = {
    orders: orders.length,
    waybills: waybillGroups(orders).map((g) => [g.channel, g.customerId, g.numberSegmentId ?? null, g.count]),
  };
  const lines = [JSON.stringify(head)];
  for (let i = 0; i < orders.length; i += ORDERS_PER_LINE)
    lines.push(JSON.stringify(orders.slice(i, i + ORDERS_PER_LINE).map(packOrder)));
  const data = Buffer.from(lines.join('\n'));
  return { data, sha256: createHash('sha256').update(data).digest('hex') };
}

export interface ParsedOrders {
  total: number;
  waybills: WaybillGroup[];
  /** The packed orders, one line at a time (each parsed only when it is reached). */
  packs(): Generator<PackedOrder[], void>;
}

/** Reads the stored form; a file stored before it had a first line is counted by reading it. */
export function decodeParsedOrders(data: Buffer): ParsedOrders {
  const lines: [number, number][] = [];
  for (let start = 0; start < data.length;) {
    const nl = data.indexOf(10, start);
    const end = nl < 0 ? data.length : nl;
    if (end > start) lines.push([start, end]);
    start = end + 1;
  }
  const line = (i: number) => JSON.parse(data.toString('utf8', lines[i]![0], lines[i]![1])) as unknown;
  const first = lines.length ? line(0) : null;
  const headed = first !== null && !Array.isArray(first);
  function* packs() {
    for (let i = headed ? 1 : 0; i < lines.length; i++) yield line(i) as PackedOrder[];
  }
  if (headed) {
    const head = first as Head;
    return {
      total: head.orders,
      waybills: head.waybills.map(([channel, customerId, numberSegmentId, count]) => ({
        channel: channel as OrderInput['channel'],
        customerId,
        numberSegmentId,
        count,
      })),
      packs,
    };
  }
  // Packed orders lead with customerId, channel, …, numberSegmentId (index 7): see packOrder.
  const keys: WaybillGroup[] = [];
  let total = 0;
  for (const pack of packs())
    for (const p of pack) {
      total++;
      keys.push({
        customerId: p[0] as number,
        channel: p[1] as OrderInput['channel'],
        numberSegmentId: p[7] as number | null,
        count: 1,
      });
    }
  return { total, waybills: waybillGroups(keys), packs };
}
