import {
  type ApiLanguage,
  ErrorCode,
  lastPlaces,
  orders,
  type ParsedRequest,
  type storageOrders as C,
} from '@console/contract';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { transition } from '../../domain/order-life.ts';
import type { UploadedFile } from '../../http/call-context.ts';
import { AppError } from '../../lib/errors.ts';
import { XLSX_MIME } from '../../lib/generated-files.ts';
import { translate } from '../../lib/messages.ts';
import { readSheetRows } from '../../lib/sheet-rows.ts';
import type { Actor } from '../../lib/scope.ts';
import type { Files } from '../../lib/files.ts';
import { buildWorkbookBuffer } from '../../lib/workbook-job.ts';
import { checkXlsxUpload } from '../../lib/xlsx-guard.ts';
import { fromMinor } from '../orders/index.ts';
import { waybillsOfSheet } from './storage-orders.sheet.ts';
import type { FoundOrder, ShipmentRecord, StorageOrdersRepository } from './storage-orders.repository.ts';
import { documentNumber } from '../../lib/document-numbers.ts';

type OrderStatus = NonNullable<C.StorageLine['order']>['status'];
type Entry = { code: string; id?: undefined } | { id: number; code?: undefined };

/** The most orders one shipment takes (one transaction). */
const MAX_SHIPMENT = 5000;

/**
 * Outbound (operators): received orders leave the warehouse in shipments. Each shipment is one
 * transaction: the orders move to shipped through the order's life (`transition ship`, which
 * refuses intercepted, error and not-received orders with its reason), and the shipment keeps
 * the orders that went, so its manifest can be made again at any time.
 */
export function createOutbound(deps: { db: Database; clock: () => Date; files: Files; repo: StorageOrdersRepository }) {
  const { db, clock, repo } = deps;
  const now = () => clock().toISOString();

  const presentShipment = (s: ShipmentRecord): C.ShipmentRow => ({
    id: s.id,
    shipmentNo: s.shipment_no,
    method: s.method as C.ShipmentRow['method'],
    orderCount: Number(s.order_count),
    createdBy: s.created_by_name,
    createdAt: new Date(s.created_at).toISOString(),
    updatedAt: new Date(s.updated_at).toISOString(),
  });
  const presentOrder = (o: FoundOrder) => ({
    id: o.id,
    orderNo: o.order_no,
    waybillNo: o.waybill_no,
    customerCode: o.customer_code,
    status: o.status as OrderStatus,
    receivedAt: o.received_at ? new Date(o.received_at).toISOString() : null,
  });

  async function ship(
    trx: Transaction<DB>,
    actor: Actor,
    lang: ApiLanguage,
    entries: Entry[],
    shipment: { id: number } | null,
    method: 'single' | 'batch',
    at: string,
  ) {
    const codes = [...new Set(entries.flatMap((e) => (e.code !== undefined ? [e.code] : [])))];
    const ids = [...new Set(entries.flatMap((e) => (e.id !== undefined ? [e.id] : [])))];
    const [byWaybill, byId] = await Promise.all([
      codes.length ? repo.byWaybills(trx, codes) : [],
      ids.length ? repo.byIds(trx, ids) : [],
    ]);
    const code = new Map<string, FoundOrder>();
    for (const o of byWaybill) {
      if (o.split_waybill_no && !code.has(o.split_waybill_no)) code.set(o.split_waybill_no, o);
      if (o.waybill_no) code.set(o.waybill_no, o);
    }
    const id = new Map(byId.map((o) => [o.id, o]));
    // Spec §5, one rule for pasted numbers (contract lastPlaces): an order entered twice ships on
    // its last line; the earlier ones are its duplicates.
    const orderOf = entries.map((e) => (e.code !== undefined ? code.get(e.code) : id.get(e.id)));
    const lastOf = lastPlaces(
      orderOf.map((o, i) => (o ? `order ${o.id}` : `none ${i}`)),
      (k) => k,
    );
    const plan = entries.map((e, i) => {
      const o = orderOf[i];
      // A selected order is named by its waybill (or order number) as a scanned one is, never by
      // its internal id (issue 36 #22); an id that finds nothing has nothing else to show.
      const label = e.code ?? o?.waybill_no ?? o?.order_no ?? String(e.id);
      if (!o) return { code: label, order: null, outcome: 'notFound' as C.ShipLine['outcome'], key: 'shipNotFound' };
      if (lastOf.get(`order ${o.id}`) !== i)
        return { code: label, order: o, outcome: 'duplicate' as const, key: 'shipRepeatedBelow' };
      return { code: label, order: o, outcome: 'shipped' as C.ShipLine['outcome'], key: 'shipShipped' };
    });
    const moved = await transition(
      trx,
      'ship',
      plan.flatMap((p) => (p.outcome === 'shipped' ? [p.order!.id] : [])),
      { at, by: actor.userId, location: orders.WAREHOUSE_LOCATION },
    );
    const refused = new Map(moved.refused.map((r) => [r.id, r.key]));
    for (const p of plan) {
      if (p.outcome !== 'shipped') continue;
      const key = refused.get(p.order!.id);
      if (key) Object.assign(p, { outcome: 'refused', key });
      else p.order = { ...p.order!, status: 'shipped' };
    }
    let shipmentId = shipment?.id ?? null;
    let counts: { order_count: number; updated_at: string } | null = null;
    if (moved.done.length) {
      shipmentId ??= (
        await repo.insertShipment(trx, {
          shipment_no: await documentNumber(trx, 'SH', clock()),
          method,
          order_count: 0,
          created_by: actor.userId,
          created_at: at,
          updated_at: at,
        })
      ).id;
      counts = await repo.addToShipment(trx, shipmentId, moved.done, at);
    }
    const lines: C.ShipLine[] = plan.map((p) => ({
      code: p.code,
      outcome: p.outcome,
      ok: p.outcome === 'shipped',
      message: translate(lang, p.key, { code: p.code, orderNo: p.order?.order_no ?? p.code }),
      order: p.order ? presentOrder(p.order) : null,
    }));
    return { shipmentId, counts, lines };
  }

  async function run(
    actor: Actor,
    lang: ApiLanguage,
    entries: Entry[],
    method: 'single' | 'batch',
    into: number | null,
  ) {
    if (!entries.length) throw AppError.badRequest('shipNothing');
    const at = now();
    const { shipmentId, counts, shipment, lines } = await db.transaction().execute(async (trx) => {
      let shipment: ShipmentRecord | null = null;
      if (into !== null) {
        const s = await repo.findShipment(trx, into);
        if (!s) throw new AppError(ErrorCode.NOT_FOUND, 'shipmentNotFound');
        if (s.method !== 'single') throw AppError.conflict('shipmentNotSingle');
        shipment = s;
      }
      return { shipment, ...(await ship(trx, actor, lang, entries, shipment, method, at)) };
    });
    // A scan added to a shipment answers with the count its UPDATE returned (no re-read).
    const s =
      shipmentId === null
        ? null
        : shipment && counts
          ? { ...shipment, ...counts }
          : (shipment ?? (await repo.findShipment(db, shipmentId)));
    return { shipment: s ? presentShipment(s) : null, lines };
  }

  return {
    single: (actor: Actor, lang: ApiLanguage, input: ParsedRequest<typeof C.outSingle>) =>
      run(actor, lang, [{ code: input.code.trim().toUpperCase() }], 'single', input.shipmentId ?? null).then((r) => ({
        shipment: r.shipment,
        line: r.lines[0]!,
      })),

    batch: (actor: Actor, lang: ApiLanguage, input: ParsedRequest<typeof C.outBatch>) =>
      run(
        actor,
        lang,
        [
          ...input.orderIds.map((id): Entry => ({ id })),
          ...input.waybillNos.map((w): Entry => ({ code: w.trim().toUpperCase() })),
        ].slice(0, MAX_SHIPMENT),
        'batch',
        null,
      ),

    async batchUpload(actor: Actor, lang: ApiLanguage, upload: UploadedFile | undefined, limitBytes: number) {
      const file = await checkXlsxUpload(upload, limitBytes);
      const read = await readSheetRows(file.data, MAX_SHIPMENT + 1);
      if (read.type === 'problem') throw AppError.field('file', translate(lang, read.key, read.params));
      const entries = waybillsOfSheet(read.rows).map(({ code }): Entry => ({ code }));
      if (!entries.length) throw AppError.field('file', 'storageNoWaybills');
      if (entries.length > MAX_SHIPMENT) throw AppError.field('file', 'storageTooManyRows', { max: MAX_SHIPMENT });
      return run(actor, lang, entries, 'batch', null);
    },

    async shippable(f: ParsedRequest<typeof C.shippableOrders>) {
      const { total, rows } = await repo.shippable(f);
      return {
        total,
        list: rows.map((r) => ({
          id: r.id,
          orderNo: r.order_no,
          waybillNo: r.waybill_no,
          customerCode: r.customer_code,
          status: r.status as OrderStatus,
          receivedAt: r.received_at ? new Date(r.received_at).toISOString() : null,
          recipientCity: r.recipient_city,
          itemCount: Number(r.item_count ?? 0),
        })),
      };
    },

    async shipments(f: ParsedRequest<typeof C.shipments>) {
      const { total, rows } = await repo.shipments(f);
      return { total, list: rows.map(presentShipment) };
    },

    /**
     * The manifest: one row per order. Orders carry no weight in this system (decisions.md):
     * the column is there, empty, for the warehouse's scale.
     */
    async manifest(lang: ApiLanguage, shipmentId: number) {
      const s = await repo.findShipment(db, shipmentId);
      if (!s) throw new AppError(ErrorCode.NOT_FOUND, 'shipmentNotFound');
      const { orders, items } = await repo.manifest(shipmentId);
      const itemsOf = new Map<number, { name: string; quantity: number }[]>();
      for (const it of items) (itemsOf.get(it.order_id) ?? itemsOf.set(it.order_id, []).get(it.order_id)!).push(it);
      const t = (k: string) => translate(lang, k);
      const body = await buildWorkbookBuffer(db, {
        sheet: {
          name: t('manifestSheet'),
          boldHeader: true,
          frozenHeader: true,
          sharedStrings: true,
          columns: [
            { header: t('manifestWaybill'), width: 20 },
            { header: t('manifestOrderNo'), width: 18 },
            { header: t('manifestCustomer'), width: 10 },
            { header: t('manifestCity'), width: 16 },
            { header: t('manifestWeight'), width: 10 },
            { header: t('manifestItemCount'), width: 8 },
            { header: t('manifestItems'), width: 50 },
            { header: t('manifestValue'), width: 14 },
            { header: t('manifestCurrency'), width: 8 },
          ],
        },
        rows: orders.map((o) => {
          const its = itemsOf.get(o.id) ?? [];
          const digits = Number(o.decimals ?? 0);
          return {
            values: [
              o.waybill_no,
              o.order_no,
              o.customer_code,
              o.recipient_city || o.recipient_province,
              null,
              its.reduce((n, it) => n + Number(it.quantity), 0),
              its.map((it) => `${it.name} ×${it.quantity}`).join('; '),
              Number(fromMinor(o.total_amount, digits)),
              o.currency,
            ],
            styles: { 8: { numFmt: digits ? `0.${'0'.repeat(digits)}` : '0' } },
          };
        }),
      });
      return { name: `${t('manifestName')}-${s.shipment_no}.xlsx`, mime: XLSX_MIME, body };
    },
  };
}
