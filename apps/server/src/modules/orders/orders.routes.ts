import { orders } from '@console/contract';
import { Download } from '../../http/call-context.ts';
import { AppError } from '../../lib/errors.ts';
import { tracked } from '../../lib/export-progress.ts';
import type { Registrar } from '../../http/register-call.ts';
import type { OrdersLookup } from './orders.lookup.ts';
import type { OrdersService } from './orders.service.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export function ordersRoutes(r: Registrar, service: OrdersService, lookup: OrdersLookup) {
  // Finding orders
  const listCache = r.responseCache(orders.orderList);
  r.call(orders.orderList, async (input, ctx) => {
    const scope = await ctx.scope();
    // The rows carry reasons in the caller's language, so the language is part of the key.
    return listCache(JSON.stringify([scope, ctx.lang, input]), () => service.list(scope, ctx.lang, input));
  });
  r.call(orders.batchOrders, async (input, ctx) => service.list(await ctx.scope(), ctx.lang, input));
  r.call(orders.downloadOrderExcel, async (input, ctx) => {
    const progress = ctx.trackExport(input.progressId);
    const f = await tracked(progress, async () => service.exportExcel(await ctx.scope(), ctx.lang, input, progress));
    return new Download(f.filename, XLSX, f.body);
  });
  r.call(orders.search, async ({ numbers, ...paging }, ctx) =>
    service.searchPage(await ctx.scope(), ctx.lang, numbers, paging),
  );
  r.call(orders.orderBatchSearch, async (_input, ctx) => {
    const file = ctx.files[0];
    if (!file) throw AppError.field('file', 'fileRequired');
    const numbers = await lookup.readNumbers(ctx.lang, file.data);
    const scope = await ctx.scope();
    const result = await service.search(scope, ctx.lang, numbers);
    const [resultFileId, searchId, first] = await Promise.all([
      lookup.resultWorkbook(ctx.actor, ctx.lang, numbers, result),
      lookup.keepNumbers(ctx.actor, numbers),
      service.searchPage(scope, ctx.lang, numbers, { offset: 0, limit: 1, order: 'desc' }),
    ]);
    return { searchId, total: first.total, notFound: first.notFound, resultFileId };
  });
  r.call(orders.orderBatchSearchFound, async ({ searchId, ...paging }, ctx) => {
    const numbers = await lookup.keptNumbers(ctx.actor, searchId);
    const { total, list } = await service.searchPage(await ctx.scope(), ctx.lang, numbers, paging);
    return { total, list };
  });
  r.call(orders.orderBatchSearchResult, async (input, ctx) => {
    const f = await lookup.resultFile(ctx.actor, input.fileId);
    return new Download(f.filename, f.mime, f.body);
  });

  // One order
  r.call(orders.order, async (input, ctx) => service.detail(await ctx.scope(), ctx.lang, input.id));
  r.call(orders.items, async (input, ctx) => service.items(await ctx.scope(), input.orderId));
  r.call(orders.orderUpdate, async (input, ctx) =>
    service.update(ctx.actor, await ctx.scope(), ctx.lang, input, ctx.staff),
  );
  r.call(orders.orderDelete, async (input, ctx) =>
    service.remove({ actor: ctx.actor, ip: ctx.ip }, await ctx.scope(), input.ids),
  );
  r.call(orders.deletedOrders, async (input, ctx) => service.deletedPage(await ctx.scope(), input));
  r.call(
    orders.itemCreate,
    async ({ orderId, confirm, orderVersion, ...item }, ctx) =>
      service.itemChange(
        ctx.actor,
        await ctx.scope(),
        ctx.lang,
        {
          kind: 'create',
          orderId,
          item,
          confirm,
          orderVersion,
        },
        ctx.staff,
      ) as never,
  );
  r.call(
    orders.itemUpdate,
    async ({ id, confirm, orderVersion, ...item }, ctx) =>
      service.itemChange(
        ctx.actor,
        await ctx.scope(),
        ctx.lang,
        {
          kind: 'update',
          id,
          item,
          confirm,
          orderVersion,
        },
        ctx.staff,
      ) as never,
  );
  r.call(
    orders.itemDelete,
    async (input, ctx) =>
      service.itemChange(ctx.actor, await ctx.scope(), ctx.lang, { kind: 'delete', id: input.id }, ctx.staff) as never,
  );
  r.call(orders.setFlag, async (input, ctx) =>
    service.setFlag(ctx.actor, await ctx.scope(), input.ids, input.flag, input.value),
  );
  r.call(orders.setOrderFlag, async (input, ctx) =>
    service.setFlag(ctx.actor, await ctx.scope(), input.ids, 'printFlag', input.printFlag),
  );

  // Creating one order
  r.call(orders.createImport, async (input, ctx) => service.create(ctx.actor, await ctx.scope(), ctx.lang, input));
  r.call(orders.resolveAddress, (input, ctx) => lookup.resolveAddress(ctx.lang, input.text));
  r.call(orders.identifyPostalCode, (input, ctx) => lookup.postalCode(ctx.lang, input.country, input.code));
  r.call(orders.getSendAddress, async (input, ctx) =>
    service.sendAddress(ctx.actor, await ctx.scope(), input.customerId),
  );
  r.call(orders.getItemByJan, async (input, ctx) =>
    service.itemByJan(ctx.actor, await ctx.scope(), input.jan, input.customerId),
  );
  r.call(orders.getOrderNumber, async (input, ctx) =>
    service.orderNumber(ctx.actor, await ctx.scope(), input.customerId),
  );
  r.call(orders.numberSegments, async (input, ctx) =>
    service.numberSegments(ctx.actor, await ctx.scope(), input.channel, input.customerId),
  );
  r.call(orders.setDefaultNumber, (input, ctx) =>
    service.setDefaultNumber(ctx.actor, input.channel, input.numberSegmentId),
  );
  r.call(orders.getDefaultNumber, (input, ctx) => service.getDefaultNumber(ctx.actor, input.channel));

  // Attention
  r.call(orders.errorOrders, async (input, ctx) => service.attention(await ctx.scope(), ctx.lang, 'error', input));
  r.call(orders.abnormalOrders, async (input, ctx) =>
    service.attention(await ctx.scope(), ctx.lang, 'abnormal', input),
  );
  r.call(orders.orderStats, async (_input, ctx) => service.stats(await ctx.scope()));
  r.call(orders.errorUpdate, async (input, ctx) => service.fixError(ctx.actor, await ctx.scope(), ctx.lang, input));
  r.call(orders.errorUpdate2, async (input, ctx) =>
    service.recheckErrors(ctx.actor, await ctx.scope(), ctx.lang, input),
  );
  r.call(orders.errorBoxcUpdate, async (input, ctx) => service.fixBoxcError(ctx.actor, await ctx.scope(), input));
  r.call(orders.abnormalRules, () => service.abnormalRules());
  r.call(orders.abnormalRuleSwitch, (input, ctx) => service.switchAbnormalRule(ctx, input));
  r.call(orders.abnormalUpdate, async (input, ctx) => service.resolveAbnormal(ctx.actor, await ctx.scope(), input));

  // Warehouse and tracking
  r.call(orders.orderScan, (input, ctx) => lookup.scan(ctx.actor, ctx.lang, input.code, input.location));
  r.call(orders.tracking, (input, ctx) => lookup.tracking(ctx.ip, input.waybillNos));
}
