import { s10Number } from '@console/contract';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { AppError } from '../lib/errors.ts';
import { addMessages } from '../lib/messages.ts';

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
 * and a rolled-back import gives its range back.
 *
 * When the user chose a segment (`segmentId`), only that one is used: it must be of
 * the channel and shared or the customer's own, else 422 on `numberSegmentId`; an
 * exhausted chosen segment is a 422 too rather than a silent switch to another
 * prefix, because the user picked the prefix on purpose. The usability test is in
 * the same guarded UPDATE, so a segment taken away meanwhile is never used.
 */
export async function allocateWaybills(
  trx: Transaction<DB> | Kysely<DB>,
  channelCode: string,
  count: number,
  customerId?: number | null,
  segmentId?: number | null,
): Promise<AllocatedWaybills> {
  if (count <= 0) return { segmentId: 0, seqs: [], numbers: [] };
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
    const row = await trx
      .updateTable('number_segments')
      .set({ next_seq: sql`next_seq + ${count}` })
      .where('id', '=', seg.id)
      .where(sql<boolean>`next_seq + ${count} - 1 <= last_seq`)
      .returning('next_seq')
      .executeTakeFirst();
    if (!row) continue; // exhausted: try the next segment
    const first = Number(row.next_seq) - count;
    const seqs = Array.from({ length: count }, (_, i) => first + i);
    return { segmentId: seg.id, seqs, numbers: seqs.map((s) => formatWaybill(seg, s)) };
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
  const first = Number(row.next_seq) - count;
  const seqs = Array.from({ length: count }, (_, i) => first + i);
  return { segmentId: row.id, seqs, numbers: seqs.map((s) => formatWaybill(row, s)) };
}

addMessages({
  waybillSegmentExhausted: {
    en: 'No waybill numbers are left for channel {channel}. Please contact customer service.',
    'zh-CN': '渠道 {channel} 的运单号段已用完，请联系客服。',
  },
  segmentNotUsable: { en: 'This number segment cannot be used for the channel.', 'zh-CN': '该号段不能用于此渠道。' },
  segmentExhausted: {
    en: 'No numbers are left in this number segment; choose another one.',
    'zh-CN': '该号段已无可用单号，请选择其他号段。',
  },
});
