import { randomInt } from 'node:crypto';
import { type ApiLanguage, ErrorCode, pickups as C } from '@console/contract';
import type { Transaction } from 'kysely';
import { pinyin } from 'pinyin-pro';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { Download } from '../../http/call-context.ts';
import { audit, type AuditWho } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { translate } from '../../lib/messages.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import { renderFile, streamAndRemove } from '../../lib/workbook-job.ts';
import { addDays, cutoffOf, dayState, japanToday, realDate } from './pickups.calendar.ts';
import { createPickupsRepository, type PickupRecord, type PickupValues } from './pickups.repository.ts';
import type { SlipRender } from './pickups.slip.ts';

const { PICKUP_CUTOFF_HOUR, PICKUP_MAX_DAYS_AHEAD, PICKUP_SLOTS } = C;
const isoOf = (t: string | Date) => new Date(t).toISOString();
/** The slip is drawn in the file workers (lib/workbook-job.ts), named since functions cannot cross threads. */
const SLIP = { kind: 'pickup-slip' } as const;

type Fields = Omit<C.BookPickup, 'customerId'>;

/**
 * Pickup appointments: slots per region and date (Japan time, closed on Sundays, holidays and
 * past the same-day cutoff), booking by a guarded UPDATE of the slot's counter (never read then
 * write), change and cancel until the cutoff, the slip PDF, and the customer's messages. A
 * storage order made from a booking's boxes (origin pickup) marks it picked up (`linkStorage`).
 */
export function createPickupsService(deps: { db: Database; clock: () => Date; fontDir: string }) {
  const { db, clock } = deps;
  const repo = createPickupsRepository(db);
  const now = () => clock().toISOString();

  const present = (r: PickupRecord): C.PickupRow => {
    const cutoffAt = cutoffOf(r.pickup_date);
    return {
      id: r.id,
      pickupNo: r.pickup_no,
      customerId: r.customer_id,
      customerCode: r.customer_code,
      region: r.region as C.PickupRegion,
      pickupDate: r.pickup_date,
      slot: r.slot as C.PickupSlot,
      boxNo: r.box_no,
      shopAbbr: r.shop_abbr,
      bigCartons: Number(r.big_cartons),
      smallParcels: Number(r.small_parcels),
      markerPrefix: r.marker_prefix,
      status: r.status as C.PickupStatus,
      cancelReason: r.cancel_reason,
      cutoffAt: cutoffAt.toISOString(),
      cancellable: r.status === 'booked' && clock().getTime() < cutoffAt.getTime(),
      storageOrderId: r.storage_order_id,
      storageNo: r.storage_no ?? null,
      createdAt: isoOf(r.created_at),
      updatedAt: isoOf(r.updated_at),
    };
  };

  async function loadScoped(scope: Scope, id: number) {
    const r = await repo.find(db, scope, id);
    if (!r) throw new AppError(ErrorCode.NOT_FOUND, 'pickupNotFound');
    return r;
  }

  /** The fields as stored (codes upper case, the way a scanner reads them); the day must be open. */
  function valuesOf(f: Fields): PickupValues {
    if (!realDate(f.date)) throw AppError.field('date', 'pickupDate');
    const state = dayState(f.date, clock());
    if (!state.open)
      throw AppError.field('date', `pickupClosed_${state.reason}`, {
        date: f.date,
        hour: PICKUP_CUTOFF_HOUR,
        days: PICKUP_MAX_DAYS_AHEAD,
        holiday: state.reason === 'holiday' ? state.holiday : '',
      });
    if (f.bigCartons + f.smallParcels === 0) throw AppError.field('bigCartons', 'pickupNoBoxes');
    return {
      region: f.region,
      pickup_date: f.date,
      slot: f.slot,
      box_no: f.boxNo.trim().toUpperCase(),
      shop_abbr: f.shopAbbr.toUpperCase(),
      big_cartons: f.bigCartons,
      small_parcels: f.smallParcels,
      marker_prefix: f.markerPrefix.toUpperCase(),
    };
  }

  const slotFull = (v: PickupValues) => AppError.conflict('pickupSlotFull', { date: v.pickup_date, slot: v.slot });

  function assertChangeable(r: PickupRecord) {
    if (r.status !== 'booked') throw AppError.conflict(`pickupNotBooked_${r.status}`);
    if (clock().getTime() >= cutoffOf(r.pickup_date).getTime())
      throw AppError.conflict('pickupPastCutoff', { date: r.pickup_date, hour: PICKUP_CUTOFF_HOUR });
  }

  const messageParams = (r: { pickup_no: string; region: string; pickup_date: string; slot: string }) => ({
    pickupNo: r.pickup_no,
    region: r.region,
    date: r.pickup_date,
    slot: r.slot,
  });

  return {
    async slots(input: { region: C.PickupRegion; from?: string; days: number }) {
      const t = clock();
      const today = japanToday(t);
      const from = input.from && realDate(input.from) ? input.from : today;
      const dates = Array.from({ length: input.days }, (_, i) => addDays(from, i));
      const [caps, booked] = await Promise.all([repo.capacities(), repo.bookedOn(input.region, dates)]);
      const capOf = new Map(caps.filter((c) => c.region === input.region).map((c) => [c.slot, Number(c.capacity)]));
      const bookedOf = new Map(booked.map((b) => [`${b.pickup_date} ${b.slot}`, Number(b.booked)]));
      return {
        today,
        cutoffHour: PICKUP_CUTOFF_HOUR,
        days: dates.map((date): C.DayRow => {
          const state = dayState(date, t);
          return {
            date,
            open: state.open,
            closedReason: state.open ? null : state.reason,
            holiday: !state.open && state.reason === 'holiday' ? state.holiday : null,
            slots: PICKUP_SLOTS.map((slot) => {
              const capacity = capOf.get(slot) ?? 0;
              const n = bookedOf.get(`${date} ${slot}`) ?? 0;
              return { slot, capacity, booked: n, left: state.open ? Math.max(0, capacity - n) : 0 };
            }),
          };
        }),
      };
    },

    async book(actor: Actor, scope: Scope, input: C.BookPickup) {
      const customerId = customerFor(actor, scope, input.customerId);
      if (scope.all && !(await repo.customerExists(customerId)))
        throw AppError.field('customerId', 'customerOutOfScope');
      const v = valuesOf(input);
      const at = now();
      const pickupNo = `PK${japanToday(clock()).replaceAll('-', '')}${String(randomInt(100_000_000)).padStart(8, '0')}`;
      const id = await db.transaction().execute(async (trx) => {
        if (!(await repo.takePlace(trx, v.region, v.pickup_date, v.slot))) throw slotFull(v);
        const { id } = await repo.insert(trx, {
          ...v,
          pickup_no: pickupNo,
          customer_id: customerId,
          status: 'booked',
          cancel_reason: null,
          storage_order_id: null,
          created_by: actor.userId,
          created_at: at,
          updated_at: at,
        });
        await repo.insertMessage(trx, {
          pickup_id: id,
          customer_id: customerId,
          kind: 'booked',
          params: messageParams({ ...v, pickup_no: pickupNo }),
          created_at: at,
        });
        return id;
      });
      return present(await loadScoped(scope, id));
    },

    async update(scope: Scope, input: Fields & { id: number }) {
      const r = await loadScoped(scope, input.id);
      assertChangeable(r);
      const v = valuesOf(input);
      const at = now();
      const moved = v.region !== r.region || v.pickup_date !== r.pickup_date || v.slot !== r.slot;
      await db.transaction().execute(async (trx) => {
        // The row is changed first, only while still booked: a cancel in between wins and no place moves.
        if (!(await repo.updateBooked(trx, r.id, { ...v, updated_at: at })))
          throw AppError.conflict('pickupNotBooked_cancelled');
        if (moved) {
          if (!(await repo.takePlace(trx, v.region, v.pickup_date, v.slot))) throw slotFull(v);
          await repo.releasePlace(trx, r.region, r.pickup_date, r.slot);
        }
        await repo.insertMessage(trx, {
          pickup_id: r.id,
          customer_id: r.customer_id,
          kind: 'changed',
          params: messageParams({ ...v, pickup_no: r.pickup_no }),
          created_at: at,
        });
      });
      return present(await loadScoped(scope, r.id));
    },

    async cancel(scope: Scope, id: number, reason: string) {
      const r = await loadScoped(scope, id);
      assertChangeable(r);
      const at = now();
      await db.transaction().execute(async (trx) => {
        // Two cancels at once: the status guard lets one through, so the place is given back once.
        if (!(await repo.updateBooked(trx, r.id, { status: 'cancelled', cancel_reason: reason, updated_at: at })))
          throw AppError.conflict('pickupNotBooked_cancelled');
        await repo.releasePlace(trx, r.region, r.pickup_date, r.slot);
        await repo.insertMessage(trx, {
          pickup_id: r.id,
          customer_id: r.customer_id,
          kind: 'cancelled',
          params: { ...messageParams(r), reason },
          created_at: at,
        });
      });
      return present(await loadScoped(scope, r.id));
    },

    async page(scope: Scope, f: C.PickupListRequest) {
      const { total, rows } = await repo.page(scope, f);
      return { total, list: rows.map(present) };
    },

    async info(scope: Scope, id: number) {
      return present(await loadScoped(scope, id));
    },

    async slip(scope: Scope, id: number, lang: ApiLanguage) {
      const r = await loadScoped(scope, id);
      const en = lang === 'en';
      const slip: SlipRender = {
        fontDir: deps.fontDir,
        pickupNo: r.pickup_no,
        customerCode: r.customer_code,
        region: r.region as C.PickupRegion,
        regionName: translate(lang, `pickupRegion_${r.region}`),
        date: r.pickup_date,
        slot: r.slot,
        boxNo: r.box_no,
        shopAbbr: r.shop_abbr,
        bigCartons: Number(r.big_cartons),
        smallParcels: Number(r.small_parcels),
        markerPrefix: r.marker_prefix,
        labels: en
          ? {
              title: 'Pickup appointment',
              pickupNo: 'Booking no.',
              slot: 'Pickup',
              address: 'Depot',
              box: 'Box no.',
              shop: 'Shop',
              counts: 'Expected',
              big: 'Big carton',
              small: 'Small parcel',
            }
          : {
              title: '预约取件单',
              pickupNo: '预约单号',
              slot: '取件时间',
              address: '仓库地址',
              box: '箱号',
              shop: '店铺',
              counts: '预计件数',
              big: '大箱',
              small: '小包',
            },
      };
      const markers = slip.bigCartons + slip.smallParcels;
      const file = await renderFile({ ...SLIP, arg: slip }, { ext: 'pdf', total: markers });
      return new Download(`${r.pickup_no}.pdf`, 'application/pdf', streamAndRemove(file));
    },

    async messages(
      scope: Scope,
      lang: ApiLanguage,
      f: { offset: number; limit: number; order: 'asc' | 'desc'; pickupId?: number },
    ) {
      const { total, rows } = await repo.messages(scope, f);
      return {
        total,
        list: rows.map((m): C.PickupMessageRow => {
          const params = JSON.parse(m.params) as Record<string, string>;
          if (params.region) params.region = translate(lang, `pickupRegion_${params.region}`);
          return {
            id: m.id,
            pickupId: m.pickup_id,
            pickupNo: m.pickup_no,
            customerCode: m.customer_code,
            kind: m.kind as C.PickupMessageKind,
            text: translate(lang, `pickupMessage_${m.kind}`, params),
            createdAt: isoOf(m.created_at),
          };
        }),
      };
    },

    /** Pinyin initials of the Chinese characters, other letters kept, anything else dropped. */
    shopAbbr(name: string) {
      const initials = pinyin(name, { pattern: 'first', toneType: 'none', type: 'array', nonZh: 'consecutive' });
      return {
        abbr: initials
          .join('')
          .replace(/[^A-Za-z]/g, '')
          .toUpperCase()
          .slice(0, 20),
      };
    },

    async capacities(): Promise<C.CapacityRow[]> {
      return (await repo.capacities()).map((c) => ({
        region: c.region as C.PickupRegion,
        slot: c.slot as C.PickupSlot,
        capacity: Number(c.capacity),
      }));
    },

    /** Capacity is what every customer can book: audited (old and new) with its change. */
    async setCapacity(who: AuditWho, input: C.CapacityRow) {
      await db.transaction().execute(async (trx) => {
        const r = createPickupsRepository(trx);
        const before = (await r.capacities()).find((c) => c.region === input.region && c.slot === input.slot);
        await r.setCapacity(input.region, input.slot, input.capacity);
        await audit(
          trx,
          who,
          {
            action: 'pickupCapacity.update',
            target: `pickupSlot:${input.region}:${input.slot}`,
            detail: { capacity: [before ? Number(before.capacity) : null, input.capacity] },
          },
          clock(),
        );
      });
      return this.capacities();
    },

    /**
     * Called in the transaction that stores a storage order: a booking whose box number, or one
     * of whose markers (prefix-NNN), is among the codes is linked to it and marked picked up,
     * with a message to its customer. Only storage orders of origin pickup look.
     */
    async linkStorage(
      trx: Transaction<DB>,
      so: { id: number; storage_no: string; customer_id: number | null; origin: string },
      codes: string[],
      at: string,
    ) {
      if (so.origin !== 'pickup' || !codes.length) return;
      const prefixes = [
        ...new Set(codes.map((c) => c.match(/^([A-Z0-9]{1,12})-\d{3,}$/)?.[1]).filter((p) => !!p)),
      ] as string[];
      const found = await repo.matching(trx, so.customer_id, codes, prefixes);
      for (const p of found) {
        if (!(await repo.updateBooked(trx, p.id, { status: 'pickedUp', storage_order_id: so.id, updated_at: at })))
          continue;
        await repo.insertMessage(trx, {
          pickup_id: p.id,
          customer_id: p.customer_id,
          kind: 'pickedUp',
          params: { pickupNo: p.pickup_no, storageNo: so.storage_no },
          created_at: at,
        });
      }
    },
  };
}
export type PickupsService = ReturnType<typeof createPickupsService>;
