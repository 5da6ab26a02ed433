import { s10Number } from '@console/contract';
import { sql, type Kysely, type Transaction } from 'kysely';
import { commitWaitsForStandby, dialectOf } from '../db/dialect.ts';
import type { DB } from '../db/schema.ts';
import { AppError } from '../lib/errors.ts';

export interface AllocatedWaybills {
  segmentId: number;
  /** The sequence numbers handed out, in order (one per waybill). */
  seqs: number[];
  numbers: string[];
}

type Segment = { id: number; prefix: string; suffix: string; scheme: string };

/** The printed number of a sequence in a segment: S10 (EMS) with its check digit, or a zero-padded serial. */
export function formatWaybill(seg: Pick<Segment, 'prefix' | 'suffix' | 'scheme'>, seq: number): string {
  return seg.scheme === 's10'
    ? s10Number(seg.prefix, seq, seg.suffix)
    : `${seg.prefix}${String(seq).padStart(10, '0')}${seg.suffix}`;
}

/**
 * Hands out `count` consecutive waybill numbers of the channel's segment (the
 * customer's own segment first, else the shared one), inside the caller's
 * transaction. One atomic `UPDATE … SET next_seq = next_seq + n … RETURNING`
 * reserves the range: PostgreSQL row-locks the segment until the caller commits,
 * SQLite serialises writers, so two concurrent imports never get the same number
 * and a rolled-back import gives its range back. Ranges given back by a batch commit that never
 * landed (`returnWaybills`) are handed out first, before the counter moves on.
 *
 * When the user chose a segment (`segmentId`), only that one is used: it must be of
 * the channel and shared or the customer's own, else 422 on `numberSegmentId`; an
 * exhausted chosen segment is a 422 too rather than a silent switch to another
 * prefix, because the user picked the prefix on purpose. The usability test is in
 * the same guarded UPDATE, so a segment taken away meanwhile is never used.
 *
 * On PostgreSQL the transaction's commit waits for the synchronous standby (db/dialect.ts
 * commitWaitsForStandby): with asynchronous replication a failover lost the counter's last
 * moves, and the new primary handed out numbers already on parcels (issue 38 row 7). Called
 * without a transaction, the allocation runs in one of its own, so the wait has one to apply to.
 */
export async function allocateWaybills(
  trx: Transaction<DB> | Kysely<DB>,
  channelCode: string,
  count: number,
  customerId?: number | null,
  segmentId?: number | null,
): Promise<AllocatedWaybills> {
  if (count <= 0) return { segmentId: 0, seqs: [], numbers: [] };
  if (dialectOf(trx) === 'postgres') {
    if (!trx.isTransaction)
      return trx.transaction().execute((t) => allocateWaybills(t, channelCode, count, customerId, segmentId));
    await commitWaitsForStandby(trx);
  }
  if (segmentId) return allocateFromChosen(trx, channelCode, count, customerId ?? null, segmentId);
  const candidates = await trx
    .selectFrom('number_segments')
    .select(['id', 'prefix', 'suffix', 'scheme', 'customer_id'])
    .where('channel_code', '=', channelCode)
    .where((eb) =>
      customerId
        ? eb.or([eb('customer_id', '=', customerId), eb('customer_id', 'is', null)])
        : eb('customer_id', 'is', null),
    )
    .orderBy(sql`case when customer_id is null then 1 else 0 end`)
    .orderBy('id')
    .execute();
  for (const seg of candidates) {
    const back = await takeReturned(trx, seg.id, count, channelCode, customerId ?? null);
    if (back !== null) return rangeOf(seg.id, seg, back, count);
    const row = await trx
      .updateTable('number_segments')
      .set({ next_seq: sql`next_seq + ${count}` })
      .where('id', '=', seg.id)
      .where(sql<boolean>`next_seq + ${count} - 1 <= last_seq`)
      .returning('next_seq')
      .executeTakeFirst();
    if (!row) continue; // exhausted: try the next segment
    return rangeOf(seg.id, seg, Number(row.next_seq) - count, count);
  }
  throw AppError.conflict('waybillSegmentExhausted', { channel: channelCode });
}

async function allocateFromChosen(
  trx: Transaction<DB> | Kysely<DB>,
  channelCode: string,
  count: number,
  customerId: number | null,
  segmentId: number,
): Promise<AllocatedWaybills> {
  const back = await takeReturned(trx, segmentId, count, channelCode, customerId);
  if (back !== null) {
    const seg = await trx
      .selectFrom('number_segments')
      .select(['prefix', 'suffix', 'scheme'])
      .where('id', '=', segmentId)
      .executeTakeFirstOrThrow();
    return rangeOf(segmentId, seg, back, count);
  }
  const row = await trx
    .updateTable('number_segments')
    .set({ next_seq: sql`next_seq + ${count}` })
    .where('id', '=', segmentId)
    .where('channel_code', '=', channelCode)
    .where((eb) =>
      customerId
        ? eb.or([eb('customer_id', '=', customerId), eb('customer_id', 'is', null)])
        : eb('customer_id', 'is', null),
    )
    .where(sql<boolean>`next_seq + ${count} - 1 <= last_seq`)
    .returning(['id', 'prefix', 'suffix', 'scheme', 'next_seq'])
    .executeTakeFirst();
  if (!row) {
    // Tell "not yours / not this channel" from "used up" only after the guarded write failed.
    const usable = await trx
      .selectFrom('number_segments')
      .select('id')
      .where('id', '=', segmentId)
      .where('channel_code', '=', channelCode)
      .where((eb) =>
        customerId
          ? eb.or([eb('customer_id', '=', customerId), eb('customer_id', 'is', null)])
          : eb('customer_id', 'is', null),
      )
      .executeTakeFirst();
    throw AppError.field('numberSegmentId', usable ? 'segmentExhausted' : 'segmentNotUsable');
  }
  return rangeOf(row.id, row, Number(row.next_seq) - count, count);
}

function rangeOf(segmentId: number, seg: Pick<Segment, 'prefix' | 'suffix' | 'scheme'>, first: number, count: number) {
  const seqs = Array.from({ length: count }, (_, i) => first + i);
  return { segmentId, seqs, numbers: seqs.map((s) => formatWaybill(seg, s)) };
}

type Q = Transaction<DB> | Kysely<DB>;

/**
 * The first sequence of `count` consecutive numbers taken from a range of the segment that a
 * commit gave back (the lowest that is long enough), or null. Only from a segment that still
 * hands out numbers: a retired one (last_seq set to the last number given) looks like a used-up
 * one, and neither may give anything again. The take is a compare-and-set on the range's start:
 * of two allocations racing for one range (PostgreSQL), the second finds it moved and looks
 * again; it waits only for the first's transaction, a create or a short reservation.
 */
async function takeReturned(
  q: Q,
  segmentId: number,
  count: number,
  channelCode: string,
  customerId: number | null,
): Promise<number | null> {
  for (;;) {
    const r = await q
      .selectFrom('waybill_reservations as r')
      .innerJoin('number_segments as s', 's.id', 'r.segment_id')
      .select(['r.id', 'r.first_seq', 'r.last_seq'])
      .where('r.segment_id', '=', segmentId)
      .where('r.batch_id', 'is', null)
      .where('s.channel_code', '=', channelCode)
      .where((eb) =>
        customerId
          ? eb.or([eb('s.customer_id', '=', customerId), eb('s.customer_id', 'is', null)])
          : eb('s.customer_id', 'is', null),
      )
      .where(sql<boolean>`s.next_seq <= s.last_seq`)
      .where(sql<boolean>`r.last_seq - r.first_seq + 1 >= ${count}`)
      .orderBy('r.first_seq')
      .limit(1)
      .executeTakeFirst();
    if (!r) return null;
    const first = Number(r.first_seq);
    const whole = first + count - 1 === Number(r.last_seq);
    const done = whole
      ? (
          await q
            .deleteFrom('waybill_reservations')
            .where('id', '=', r.id)
            .where('first_seq', '=', first)
            .where('batch_id', 'is', null)
            .executeTakeFirst()
        ).numDeletedRows
      : (
          await q
            .updateTable('waybill_reservations')
            .set({ first_seq: first + count })
            .where('id', '=', r.id)
            .where('first_seq', '=', first)
            .where('batch_id', 'is', null)
            .executeTakeFirst()
        ).numUpdatedRows;
    if (Number(done) === 1) return first;
  }
}

/**
 * Records a batch commit's reserved ranges with the batch, in the transaction that reserved them:
 * whatever happens to the commit after, the ranges are known (see returnWaybills).
 */
export async function recordReservation(q: Q, batchId: number, ranges: readonly AllocatedWaybills[]) {
  const rows = ranges
    .filter((a) => a.seqs.length)
    .map((a) => ({ segment_id: a.segmentId, first_seq: a.seqs[0]!, last_seq: a.seqs.at(-1)!, batch_id: batchId }));
  if (rows.length) await q.insertInto('waybill_reservations').values(rows).execute();
}

/** The batch landed: its numbers are its orders' now (in the transaction that marks it done). */
export async function settleReservation(q: Q, batchId: number) {
  await q.deleteFrom('waybill_reservations').where('batch_id', '=', batchId).execute();
}

/**
 * Gives back the ranges of a batch commit that never landed (failed, or found interrupted after
 * its process died), once its staged orders are removed. Where nothing was drawn after a range
 * and the segment has room, the counter is set back (newest range first, so a segment's several
 * ranges unwind in turn); otherwise the range stays as a returned one, handed out again first.
 */
export async function returnWaybills(q: Q, batchId: number) {
  const ranges = await q
    .selectFrom('waybill_reservations')
    .select(['id', 'segment_id', 'first_seq', 'last_seq'])
    .where('batch_id', '=', batchId)
    .orderBy('id', 'desc')
    .execute();
  for (const r of ranges) {
    const after = Number(r.last_seq) + 1;
    const rewound = await q
      .updateTable('number_segments')
      .set({ next_seq: Number(r.first_seq) })
      .where('id', '=', r.segment_id)
      .where('next_seq', '=', after)
      .where('last_seq', '>=', after)
      .executeTakeFirst();
    if (Number(rewound.numUpdatedRows) === 1)
      await q.deleteFrom('waybill_reservations').where('id', '=', r.id).execute();
    else await q.updateTable('waybill_reservations').set({ batch_id: null }).where('id', '=', r.id).execute();
  }
}
