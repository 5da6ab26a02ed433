import { eanCheckDigit, idCardCheckChar, s10Number } from '@console/contract';
import { areaList } from '@vant/area-data';
import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { storeReasons } from '../lib/reasons.ts';

/**
 * The demo's orders (called by seedDemo, in its transaction): a few hundred across channels and
 * statuses, some in the customers' batches, drawn from a seeded PRNG so every run sees the same.
 */

function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗';
const GIVEN = [
  '伟',
  '芳',
  '娜',
  '秀英',
  '敏',
  '静',
  '丽',
  '强',
  '磊',
  '军',
  '洋',
  '勇',
  '艳',
  '杰',
  '娟',
  '涛',
  '明',
  '超',
];
const PRODUCTS = [
  ['资生堂 洗面奶', 'Shiseido'],
  ['花王 纸尿裤 L', 'Kao'],
  ['明治 奶粉 800g', 'Meiji'],
  ['SK-II 神仙水 230ml', 'SK-II'],
  ['DHC 润唇膏', 'DHC'],
  ['尤妮佳 面膜', 'Unicharm'],
  ['狮王 牙膏', 'Lion'],
  ['乐敦 眼药水', 'Rohto'],
] as const;
const STATUSES = [
  'created',
  'created',
  'created',
  'printed',
  'printed',
  'received',
  'shipped',
  'released',
  'cancelled',
];

export async function seedDemoOrders(
  trx: Transaction<DB>,
  at: { now: Date; iso: string },
  who: { ids: Record<string, number>; customers: number[] },
  total: number,
) {
  const { now, iso } = at;
  const { ids, customers } = who;
  const rnd = prng(20261121);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const provinces = Object.entries(areaList.province_list);
  const segments = await trx.selectFrom('number_segments').selectAll().execute();
  const nextSeq = new Map(segments.map((s) => [s.channel_code, Number(s.next_seq)]));
  // Each batch is one customer's upload of one channel's template, as an import makes it; its
  // counts are set from the orders given to it below (Batch List and Order List agree).
  const batchOf: { customerIdx: number; channel: string; kind: string }[] = [
    { customerIdx: 0, channel: 'JP', kind: 'import' },
    { customerIdx: 1, channel: 'JP', kind: 'import' },
    { customerIdx: 0, channel: 'EMS', kind: 'ems' },
    { customerIdx: 0, channel: 'JP', kind: 'import' },
    { customerIdx: 1, channel: 'EMS', kind: 'ems' },
    { customerIdx: 0, channel: 'USA', kind: 'usa' },
  ];
  const batchIds: number[] = [];
  const batchTally = new Map<number, { orders: number; rows: number }>();
  const batchCreated: Date[] = [];
  for (let b = 0; b < batchOf.length; b++) {
    batchCreated.push(new Date(now.getTime() - (6 - b) * 86_400_000));
    const customerId = customers[batchOf[b]!.customerIdx]!;
    const r = await trx
      .insertInto('batches')
      .values({
        batch_no: `B${iso.slice(0, 10).replaceAll('-', '')}${String(b + 1).padStart(4, '0')}`,
        customer_id: customerId,
        channel_code: batchOf[b]!.channel,
        template_kind: batchOf[b]!.kind,
        status: 'done',
        progress: 100,
        created_by: ids[batchOf[b]!.customerIdx ? 'demo2' : 'demo']!,
        created_at: batchCreated[b]!.toISOString(),
        updated_at: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    batchIds.push(r.id);
  }

  for (let i = 0; i < total; i++) {
    const drawn = pick(['JP', 'JP', 'JP', 'EMS', 'USA', 'SG', 'AU', 'UK', 'PH', 'TH']);
    const customerIdx = i % 6 === 5 ? 1 : 0;
    // About a quarter of each customer's orders came in one of its batches, in turn, and are of
    // the batch's channel (no extra random draw: the rest of the seed stays as it was).
    const inBatch = customerIdx ? i % 12 === 5 : i % 4 === 0;
    const mine = batchOf.flatMap((b, k) => (b.customerIdx === customerIdx ? [k] : []));
    const k = inBatch && mine.length ? mine[Math.floor(i / (customerIdx ? 12 : 4)) % mine.length]! : null;
    const batchId = k === null ? null : batchIds[k]!;
    const channel = k === null ? drawn : batchOf[k]!.channel;
    const seq = nextSeq.get(channel)!;
    nextSeq.set(channel, seq + 1);
    const seg = segments.find((s) => s.channel_code === channel)!;
    const waybill =
      seg.scheme === 's10' ? s10Number(seg.prefix, seq, seg.suffix) : `${seg.prefix}${String(seq).padStart(10, '0')}`;
    const [provCode, provName] = pick(provinces);
    const cityEntry = Object.entries(areaList.city_list).find(([c]) => c.startsWith(provCode.slice(0, 2))) ?? [
      provCode,
      provName,
    ];
    const areaEntry =
      Object.entries(areaList.county_list).find(([c]) => c.startsWith(cityEntry[0].slice(0, 4))) ?? cityEntry;
    const birth = `${1960 + Math.floor(rnd() * 45)}${String(1 + Math.floor(rnd() * 12)).padStart(2, '0')}${String(1 + Math.floor(rnd() * 28)).padStart(2, '0')}`;
    const first17 = `${areaEntry[0]}${birth}${String(Math.floor(rnd() * 1000)).padStart(3, '0')}`;
    const drawnAt = new Date(now.getTime() - Math.floor(rnd() * 45 * 86_400_000));
    // A batch's orders were made when it was imported.
    const created = k === null ? drawnAt : batchCreated[k]!;
    // An intercepted order is one stopped before it ships (the order life's rule): the same
    // one draw from the statuses it can be in, so the rest of the seed stays as it was.
    const intercepted = i % 41 === 3;
    const status = intercepted ? pick(['created', 'printed', 'received'] as const) : pick(STATUSES);
    const errored = i % 23 === 7;
    const abnormal = i % 31 === 11;
    const currency = channel === 'JP' || channel === 'EMS' ? 'JPY' : channel === 'USA' ? 'USD' : 'JPY';
    const items = Array.from({ length: 1 + Math.floor(rnd() * 3) }, (_, k) => {
      const [name, brand] = pick(PRODUCTS);
      const data = `49${String(Math.floor(rnd() * 1e10)).padStart(10, '0')}`;
      return {
        line_no: k + 1,
        jan: `${data}${eanCheckDigit(data)}`,
        name,
        brand,
        spec: '1件',
        quantity: 1 + Math.floor(rnd() * 3),
        unit_price: currency === 'JPY' ? 500 + Math.floor(rnd() * 8000) : 500 + Math.floor(rnd() * 5000),
        currency,
        origin: 'JP',
        hazard_code: null,
      };
    });
    const totalAmount = items.reduce((s, it) => s + it.unit_price * it.quantity, 0);
    if (batchId !== null) {
      const t = batchTally.get(batchId) ?? { orders: 0, rows: 0 };
      t.orders++;
      t.rows += items.length;
      batchTally.set(batchId, t);
    }
    const order = await trx
      .insertInto('orders')
      .values({
        customer_id: customers[customerIdx]!,
        batch_id: batchId,
        channel_code: channel,
        order_no: `${customerIdx ? 'D2' : 'DM'}${String(100000 + i)}`,
        waybill_no: waybill,
        system_no: `S${created.toISOString().slice(2, 10).replaceAll('-', '')}${String(i + 1).padStart(7, '0')}`,
        user_ref_no: `REF-${i + 1}`,
        number_segment_id: seg.id,
        status,
        intercepted: intercepted ? 1 : 0,
        released: status === 'released' ? 1 : 0,
        print_count: status === 'created' ? 0 : 1,
        print_flag: status === 'created' ? 0 : 1,
        // Reasons are codes with parameters (lib/reasons.ts), translated when listed.
        error_reason: errored ? storeReasons([{ code: 'errorReason.idCardNameMismatch' }]) : null,
        error_at: errored ? created.toISOString() : null,
        abnormal_rule: abnormal ? 'sameRecipientTooOften' : null,
        abnormal_reason: abnormal
          ? storeReasons([{ code: 'abnormalReason.sameRecipientTooOften', params: { count: 5, max: 5 } }])
          : null,
        abnormal_at: abnormal ? created.toISOString() : null,
        recipient_name: pick([...SURNAMES]) + pick(GIVEN),
        recipient_id_card: first17 + idCardCheckChar(first17),
        recipient_phone: `1${pick(['38', '39', '58', '86', '77'])}${String(Math.floor(rnd() * 1e8)).padStart(8, '0')}`,
        recipient_province: provName,
        recipient_city: cityEntry[1],
        recipient_district: areaEntry[1],
        recipient_address: `${pick(['人民路', '解放路', '中山路', '建设路'])}${1 + Math.floor(rnd() * 300)}号`,
        recipient_postcode: `${provCode.slice(0, 2)}0000`,
        sender_name: 'DEMO Trading',
        sender_address: '1-10-1 Nagatacho, Chiyoda-ku, Tokyo',
        sender_phone: '03-1234-5678',
        currency,
        total_amount: totalAmount,
        created_by: ids[customerIdx ? 'demo2' : 'demo']!,
        created_at: created.toISOString(),
        updated_at: created.toISOString(),
        received_at: ['received', 'shipped', 'released'].includes(status) ? created.toISOString() : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('order_items')
      .values(items.map((it) => ({ ...it, order_id: order.id })))
      .execute();
    // 'created' is the order's own created_at (orders.repository createdEvent); the rest are stored.
    const kinds = ['created', 'printed', 'received', 'shipped', 'released'];
    const upto = status === 'cancelled' ? 1 : kinds.indexOf(status) + 1;
    const later = kinds.slice(1, upto).map((kind, k) => ({
      order_id: order.id,
      kind,
      at: new Date(created.getTime() + (k + 1) * 6 * 3_600_000).toISOString(),
      location: k + 1 < 3 ? 'Tokyo' : 'Hangzhou',
    }));
    if (later.length) await trx.insertInto('tracking_events').values(later).execute();
    // Interceptions (issue 13): the intercepted orders' records, and a few cancelled ones,
    // with the events the order's life writes for them.
    const cancelledInterception = i % 41 === 20 && ['created', 'printed', 'received'].includes(status);
    if (i % 41 === 3 || cancelledInterception) {
      const by = ids[customerIdx ? 'demo2' : 'demo']!;
      const at = new Date(created.getTime() + 2 * 3_600_000).toISOString();
      const off = cancelledInterception ? new Date(created.getTime() + 4 * 3_600_000).toISOString() : null;
      await trx
        .insertInto('order_interceptions')
        .values({
          customer_id: customers[customerIdx]!,
          order_id: order.id,
          order_no: `${customerIdx ? 'D2' : 'DM'}${String(100000 + i)}`,
          no_type: 'waybillNo',
          number: waybill,
          reason: cancelledInterception ? '收件人要求暂缓发货' : '收件地址有误',
          created_by: by,
          created_at: at,
          cancel_reason: off ? '地址已确认' : null,
          cancelled_by: off ? by : null,
          cancelled_at: off,
        })
        .execute();
      await trx
        .insertInto('tracking_events')
        .values([
          { order_id: order.id, kind: 'intercepted', at, location: null, note: '收件地址有误', created_by: by },
          ...(off
            ? [
                {
                  order_id: order.id,
                  kind: 'interceptionCancelled',
                  at: off,
                  location: null,
                  note: '地址已确认',
                  created_by: by,
                },
              ]
            : []),
        ])
        .execute();
    }
  }
  for (const [batchId, t] of batchTally) {
    await trx
      .updateTable('batches')
      .set({ order_count: t.orders, total_rows: t.rows, valid_rows: t.rows })
      .where('id', '=', batchId)
      .execute();
  }
  for (const [channel, seq] of nextSeq) {
    await trx.updateTable('number_segments').set({ next_seq: seq }).where('channel_code', '=', channel).execute();
  }
  // demo2's own Singapore segment (issue 17: a customer's segments are managed on the
  // Customers page), added after the shared segments were advanced above so it starts at 1.
  // demo and demo2 keep every channel: their seed orders use all of them.
  await trx
    .insertInto('number_segments')
    .values({
      channel_code: 'SG',
      customer_id: customers[1]!,
      name: 'DEMO2-SG',
      prefix: 'D2SG',
      suffix: '',
      scheme: 'plain',
      first_seq: 1,
      next_seq: 1,
      last_seq: 999_999,
    })
    .execute();
}
