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
 */
export async function allocateWaybills(
  trx: Transaction<DB> | Kysely<DB>,
  channelCode: string,
  count: number,
  customerId?: number | null,
): Promise<AllocatedWaybills> {
  if (count <= 0) return { segmentId: 0, seqs: [], numbers: [] };
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

addMessages({
  waybillSegmentExhausted: {
    en: 'No waybill numbers are left for channel {channel}. Please contact customer service.',
    'zh-CN': '渠道 {channel} 的运单号段已用完，请联系客服。',
  },
});
