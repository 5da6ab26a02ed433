import { storageOrders as c } from '@console/contract';
import { Download } from '../../http/call-context.ts';
import type { CallContext } from '../../http/call-context.ts';
import type { Registrar } from '../../http/register-call.ts';
import type { StorageOrdersService } from './storage-orders.service.ts';

export function storageOrdersRoutes(r: Registrar, service: StorageOrdersService, uploadLimitBytes: number) {
  const file = (ctx: CallContext) => ctx.files.find((f) => f.field === 'file') ?? ctx.files[0];
  r.call(c.storageOrders, async (input, ctx) => service.page(await ctx.scope(), input));
  r.call(c.storageOrderOrders, async (input, ctx) => service.lines(await ctx.scope(), ctx.lang, input));
  r.call(c.createStorageOrder, async (input, ctx) => service.create(ctx.actor, await ctx.scope(), ctx.lang, input));
  r.call(c.createStorageOrderBatch, async (input, ctx) =>
    service.createBatch(ctx.actor, await ctx.scope(), ctx.lang, input, file(ctx)),
  );
  r.call(c.storageBatchErrors, async (input, ctx) => {
    const f = await service.errorFile(ctx.actor, input.fileId);
    return new Download(f.name, f.mime, f.body);
  });
  r.call(c.storageOriginSelect, (_input, ctx) => service.origins(ctx.lang));
  r.call(c.reweighOrder, (input, ctx) => service.reweigh(ctx.actor, ctx.ip, input));

  const out = service.outbound;
  r.call(c.outSingle, (input, ctx) => out.single(ctx.actor, ctx.lang, input));
  r.call(c.outBatch, (input, ctx) => out.batch(ctx.actor, ctx.lang, input));
  r.call(c.outBatchUpload, (_input, ctx) => out.batchUpload(ctx.actor, ctx.lang, file(ctx), uploadLimitBytes));
  r.call(c.shippableOrders, (input) => out.shippable(input));
  r.call(c.shipments, (input) => out.shipments(input));
  r.call(c.shipmentManifest, async (input, ctx) => {
    const f = await out.manifest(ctx.lang, input.shipmentId);
    return new Download(f.name, f.mime, f.body);
  });
}
