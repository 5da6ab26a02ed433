import { type ApiLanguage, isValidJan, orders } from '@console/contract';
import { allowedChannelsOf } from '../../domain/customer-channels.ts';
import { defaultSenderOf } from '../../domain/default-sender.ts';
import type { OrderInput } from '../../domain/order-input.ts';
import { insertOrders } from '../../domain/order-writer.ts';
import { AppError } from '../../lib/errors.ts';
import { translate } from '../../lib/messages.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import { presentTax } from './orders.presenter.ts';
import { fromMinor } from '../../domain/pricing/index.ts';
import type { OrderWrites, Req } from './orders.write.ts';

/** Creating one order: the form's checks and write, and what the form looks up (sender, JAN, numbers). */
export function orderCreation(w: OrderWrites) {
  const { db, clock, deps, repo, now, validationContext, pricing, toItems, money, check, abnormalOf } = w;
  return {
    // ---- creating one --------------------------------------------------
    async create(actor: Actor, scope: Scope, lang: ApiLanguage, p: Req<typeof orders.createImport>) {
      await deps.assertClear(actor);
      const customerId = customerFor(actor, scope, p.customerId);
      const ctx = await validationContext();
      const channel = ctx.channels.get(p.channel)!;
      // A chosen segment is checked early so the user hears of it before any confirmation is asked;
      // the allocation checks it again inside the write, which is what makes it safe.
      if (p.numberSegmentId) {
        const segs = await repo.numberSegments(p.channel, customerId);
        if (!segs.some((s) => s.id === p.numberSegmentId)) throw AppError.field('numberSegmentId', 'segmentNotUsable');
      }
      if (p.exportNominationId) {
        const en = await repo.exportNomination(customerId, p.exportNominationId);
        if (!en) throw AppError.field('exportNominationId', 'notFound');
      }
      const input: OrderInput = {
        customerId,
        channel: p.channel,
        orderNo: p.orderNo,
        boxNo: null,
        userRefNo: p.userRefNo,
        orderType: p.orderType,
        exportNominationId: p.exportNominationId ?? null,
        numberSegmentId: p.numberSegmentId ?? null,
        clearanceCompanyCode: p.clearanceCompany,
        recipient: p.recipient,
        sender: p.sender,
        items: toItems(p.items, channel.currency, ctx),
        insuredAmount: money(p.insuredAmount, channel.currency, ctx, 'insuredAmount'),
        remark: p.remark,
      };
      let assessed: Awaited<ReturnType<typeof pricing.price>> | undefined;
      const allowedChannels = await allowedChannelsOf(db, customerId);
      await check(input, { ...ctx, allowedChannels }, lang, p.confirm, async () => {
        assessed = await pricing.price(input, ctx.currencies, clock(), lang, { yearly: true, refuse: true });
      });
      input.taxEstimate = assessed!.taxEstimate;
      if (await repo.orderNoExists(customerId, p.orderNo)) {
        throw AppError.field('orderNo', translate(lang, 'orderNoExists', { value: p.orderNo }));
      }
      const abnormal = await abnormalOf(input, ctx);
      const [created] = await db.transaction().execute(async (trx) => {
        const out = await insertOrders(trx, [input], { batchId: null, createdBy: actor.userId, now: now() });
        if (abnormal.abnormal_at) await repo.updateOrder(trx, out[0]!.id, abnormal);
        return out;
      });
      return {
        id: created!.id,
        orderNo: created!.orderNo,
        waybillNo: created!.waybillNo,
        warnings: assessed!.warnings,
        taxEstimate: presentTax(assessed!.estimate),
      };
    },
    async sendAddress(actor: Actor, scope: Scope, requested?: number) {
      const customerId = customerFor(actor, scope, requested);
      return (await defaultSenderOf(db, customerId)) ?? { name: null, address: null, phone: null };
    },
    async itemByJan(actor: Actor, scope: Scope, jan: string, requested?: number) {
      const customerId = customerFor(actor, scope, requested);
      const [rows, ctx, entry] = await Promise.all([
        repo.itemByJan(customerId, jan),
        validationContext(),
        deps.catalogueByJan?.(customerId, jan.trim()) ?? null,
      ]);
      const validJan = isValidJan(jan);
      const catalogueStatus = entry?.status ?? null;
      const d = (c: string) => ctx.currencies.get(c) ?? 2;
      const prices = [...new Set(rows.map((r) => fromMinor(r.unit_price, d(r.currency))))];
      // An approved catalogue entry is what the operators checked: it wins over what earlier orders said.
      if (entry?.status === 'approved') {
        return {
          found: true,
          validJan,
          item: {
            jan: jan.trim(),
            name: entry.name,
            brand: entry.brand,
            spec: entry.spec || null,
            unitPrice: entry.price,
            currency: 'JPY' as const,
            origin: entry.origin,
            hazardCode: rows[0]?.hazard_code ?? null,
          },
          prices,
          source: 'catalogue' as const,
          catalogueStatus,
        };
      }
      if (!rows.length) return { found: false, validJan, item: null, prices: [], source: null, catalogueStatus };
      const latest = rows[0]!;
      return {
        found: true,
        validJan,
        source: 'orders' as const,
        catalogueStatus,
        item: {
          jan: latest.jan,
          name: latest.name,
          brand: latest.brand,
          spec: latest.spec,
          unitPrice: fromMinor(latest.unit_price, d(latest.currency)),
          currency: latest.currency as orders.OrderItem['currency'],
          origin: latest.origin,
          hazardCode: latest.hazard_code,
        },
        prices,
      };
    },
    async orderNumber(actor: Actor, scope: Scope, requested?: number) {
      const customerId = customerFor(actor, scope, requested);
      // Operators may name any customer id: one that does not exist is the field's fault, as in storage orders.
      const c = await repo.customer(customerId);
      if (!c) throw AppError.field('customerId', 'orderCustomerUnknown');
      const day = new Date(clock().getTime() + 8 * 3_600_000).toISOString().slice(2, 10).replaceAll('-', '');
      for (let i = 0; i < 20; i++) {
        const n = `${c.code}${day}${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;
        if (!(await repo.orderNoExists(customerId, n))) return { orderNo: n };
      }
      throw AppError.conflict('orderNoExists', { value: c.code });
    },
    async numberSegments(actor: Actor, scope: Scope, channel: string, requested?: number) {
      const customerId = customerFor(actor, scope, requested);
      return (await repo.numberSegments(channel, customerId)).map((s) => ({
        id: s.id,
        name: s.name,
        prefix: s.prefix,
        remaining: Math.max(0, Number(s.last_seq) - Number(s.next_seq) + 1),
      }));
    },
    async setDefaultNumber(actor: Actor, channel: string, segmentId: number | null) {
      if (segmentId !== null) {
        const seg = await repo.numberSegment(segmentId, channel);
        if (!seg || (seg.customer_id !== null && actor.role === 'customer' && seg.customer_id !== actor.customerId)) {
          throw AppError.field('numberSegmentId', 'segmentNotUsable');
        }
      }
      await repo.putSetting(actor.userId, `order.defaultNumber.${channel}`, segmentId, now());
      return null;
    },
    async getDefaultNumber(actor: Actor, channel: string) {
      const v = await repo.getSetting(actor.userId, `order.defaultNumber.${channel}`);
      return { numberSegmentId: typeof v === 'number' ? v : null };
    },
  };
}
