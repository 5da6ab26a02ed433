import { reference } from '@console/contract';
import type { Registrar } from '../../http/register-call.ts';
import type { Database } from '../../db/database.ts';
import { allowedChannelsOf } from '../../domain/customer-channels.ts';
import { AppError } from '../../lib/errors.ts';
import { cnDivisions } from '../../domain/cn-divisions.ts';
import { createReferenceRepository } from './reference.repository.ts';

const coded = (r: { code: string; name_zh: string; name_en: string }) => ({
  code: r.code,
  name: { zh: r.name_zh, en: r.name_en },
});

/** Reference data is read-only and small: the routes read the repository directly. */
export function referenceRoutes(r: Registrar, db: Database) {
  const repo = createReferenceRepository(db);
  // A customer user sees the channels it may use (none listed: all); agents and operators act
  // for several customers and see every channel (the server refuses per customer on create).
  r.call(reference.channels, async (_input, ctx) => {
    const allowed =
      ctx.actor.role === 'customer' && ctx.actor.customerId ? await allowedChannelsOf(db, ctx.actor.customerId) : null;
    return (await repo.channels())
      .filter((c) => !allowed || allowed.has(c.code))
      .map((c) => ({
        ...coded(c),
        code: c.code as never,
        currency: c.currency as never,
        origin: c.origin,
        templateKind: c.template_kind,
        hasBoxes: c.has_boxes === 1,
      }));
  });
  r.call(reference.customsClearanceCompanies, async () => (await repo.clearanceCompanies()).map(coded));
  r.call(reference.orderTypes, async () => (await repo.orderTypes()).map(coded));
  r.call(reference.currencies, async () =>
    (await repo.currencies()).map((c) => ({ ...coded(c), code: c.code as never, decimals: c.decimals })),
  );
  r.call(reference.noTypes, () =>
    [
      ['orderNo', '订单号', 'Order number'],
      ['waybillNo', '运单号', 'Waybill number'],
      ['splitWaybillNo', '拆分运单号', 'Split waybill number'],
      ['systemNo', '系统单号', 'System number'],
      ['userRefNo', '用户参考号', 'User reference number'],
      ['batchNo', '批次号', 'Batch number'],
    ].map(([code, zh, en]) => ({ code: code!, name: { zh: zh!, en: en! } })),
  );
  r.call(reference.exportsOptions, async (input, ctx) =>
    (await repo.exportNominations(await ctx.scope(), input.customerId)).map((e) => ({
      id: e.id,
      nameJa: e.name_ja,
      nameEn: e.name_en,
      corporateNumber: e.corporate_number,
      customerId: e.customer_id,
    })),
  );
  r.call(reference.customers, async (_input, ctx) => repo.customers(await ctx.scope()));
  r.call(reference.provinces, () => cnDivisions.provinces());
  r.call(reference.cities, (input) => {
    const list = cnDivisions.cities(input.province);
    if (list.length === 0) throw AppError.noData();
    return list;
  });
  r.call(reference.divisionTree, () => cnDivisions.tree());
  r.call(reference.areas, (input) => {
    const list = cnDivisions.areas(input.city);
    if (list.length === 0) throw AppError.noData();
    return list;
  });
}
