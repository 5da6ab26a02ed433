import { admin as contractAdmin, type admin as C } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { lockForTransaction } from '../../db/dialect.ts';
import { formatWaybill } from '../../domain/waybills.ts';
import { AppError } from '../../lib/errors.ts';
import type { AdminLog, Caller } from './admin.log.ts';
import { createAdminRepository } from './admin.repository.ts';

type AdminRepository = ReturnType<typeof createAdminRepository>;
const C_MAX_SEQ = contractAdmin.segmentMaxSeq;

type SegmentRecord = NonNullable<Awaited<ReturnType<AdminRepository['segmentById']>>>;
const presentSegment = (r: SegmentRecord): C.SegmentRow => {
  const [first, next, last] = [Number(r.first_seq), Number(r.next_seq), Number(r.last_seq)];
  return {
    id: r.id,
    channelCode: r.channel_code,
    name: r.name,
    prefix: r.prefix,
    suffix: r.suffix,
    scheme: r.scheme as C.SegmentScheme,
    firstSeq: first,
    nextSeq: next,
    lastSeq: last,
    used: Math.max(0, next - first),
    remaining: Math.max(0, last - next + 1),
    firstNumber: formatWaybill(r, first),
    lastNumber: formatWaybill(r, Math.max(first, last)),
  };
};

/** What a segment's numbers look like, by scheme: the S10 shape is fixed by the UPU standard. */
const segmentShape: Record<C.SegmentScheme, { prefix: RegExp; suffix: RegExp; prefixKey: string; suffixKey: string }> =
  {
    s10: { prefix: /^[A-Z]{2}$/, suffix: /^[A-Z]{2}$/, prefixKey: 'segmentPrefixS10', suffixKey: 'segmentSuffixS10' },
    plain: {
      prefix: /^[A-Z0-9]{1,10}$/,
      suffix: /^[A-Z0-9]{0,10}$/,
      prefixKey: 'segmentPrefixPlain',
      suffixKey: 'segmentSuffixPlain',
    },
  };

/**
 * A customer's waybill number segments (the administration page's segment tab): listed, created
 * without overlapping any other segment of the same shape, retired.
 */
export function createSegmentAdmin({
  db,
  repo,
  log,
  customerRow,
}: {
  db: Database;
  repo: AdminRepository;
  log: AdminLog;
  customerRow: (id: number, r?: AdminRepository) => Promise<C.CustomerRow>;
}) {
  return {
    async segments(customerId: number) {
      await customerRow(customerId);
      return (await repo.segmentsOf(customerId)).map(presentSegment);
    },

    /**
     * A new segment of a customer. The shape is the scheme's; the range must not meet any segment
     * of the same scheme, prefix and suffix (shared or any customer's), else one waybill number
     * could be handed out twice. Check and insert run under one lock per number shape, so two
     * overlapping creates racing each other cannot both pass the check.
     */
    async createSegment(c: Caller, input: C.CreateSegmentRequest) {
      const shape = segmentShape[input.scheme];
      if (!shape.prefix.test(input.prefix)) throw AppError.field('prefix', shape.prefixKey);
      if (!shape.suffix.test(input.suffix)) throw AppError.field('suffix', shape.suffixKey);
      const max = C_MAX_SEQ[input.scheme];
      if (input.firstSeq > max) throw AppError.field('firstSeq', 'segmentSeqRange', { max });
      if (input.lastSeq > max) throw AppError.field('lastSeq', 'segmentSeqRange', { max });
      if (input.firstSeq > input.lastSeq) throw AppError.field('lastSeq', 'segmentRangeOrder');
      return db.transaction().execute(async (trx) => {
        const r = createAdminRepository(trx);
        const customer = await customerRow(input.customerId, r);
        if (!(await r.knownChannels()).includes(input.channelCode))
          throw AppError.field('channelCode', 'customerChannelUnknown', { value: input.channelCode });
        await lockForTransaction(trx, `number_segments:${input.scheme}:${input.prefix}:${input.suffix}`);
        const hit = await r.overlapping({
          scheme: input.scheme,
          prefix: input.prefix,
          suffix: input.suffix,
          first: input.firstSeq,
          last: input.lastSeq,
        });
        if (hit)
          throw AppError.field('firstSeq', 'segmentOverlap', {
            name: hit.name,
            first: Number(hit.first_seq),
            last: Number(hit.last_seq),
          });
        const id = await r.insertSegment({
          channel_code: input.channelCode,
          customer_id: customer.id,
          name: input.name,
          prefix: input.prefix,
          suffix: input.suffix,
          scheme: input.scheme,
          first_seq: input.firstSeq,
          next_seq: input.firstSeq,
          last_seq: input.lastSeq,
        });
        await log(trx, c, 'segment.create', `customer:${customer.code}`, {
          id,
          channel: input.channelCode,
          scheme: input.scheme,
          prefix: input.prefix,
          suffix: input.suffix,
          first: input.firstSeq,
          last: input.lastSeq,
        });
        return presentSegment((await r.segmentById(id))!);
      });
    },

    /** Only a customer's own segment: the shared ones are the channel's, not this page's. */
    async retireSegment(c: Caller, id: number) {
      return db.transaction().execute(async (trx) => {
        const r = createAdminRepository(trx);
        const seg = await r.segmentById(id);
        if (!seg || seg.customer_id === null) throw AppError.field('id', 'segmentNotFound');
        await r.retireSegment(id);
        const after = (await r.segmentById(id))!;
        const customer = await customerRow(seg.customer_id, r);
        await log(trx, c, 'segment.retire', `customer:${customer.code}`, {
          id,
          prefix: seg.prefix,
          lastSeq: [Number(seg.last_seq), Number(after.last_seq)],
        });
        return presentSegment(after);
      });
    },
  };
}
