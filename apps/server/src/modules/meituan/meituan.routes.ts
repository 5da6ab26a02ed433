import { meituan as c } from '@console/contract';
import type { CallContext } from '../../http/call-context.ts';
import type { Registrar } from '../../http/register-call.ts';
import type { MeituanService } from './meituan.service.ts';

export function meituanRoutes(r: Registrar, service: MeituanService) {
  const file = (ctx: CallContext) => ctx.files.find((f) => f.field === 'file') ?? ctx.files[0];
  r.call(c.meituanOrders, async (input, ctx) => service.page(await ctx.scope(), input));
  r.call(c.meituanOrder, async (input, ctx) => service.info(await ctx.scope(), input.id));
  r.call(c.meituanOrderItems, async (input, ctx) => service.items(await ctx.scope(), input.id));
  r.call(c.meituanTemplate, (_input, ctx) => service.template(ctx.lang));
  r.call(c.meituanCreate, async (input, ctx) =>
    service.create(ctx.actor, await ctx.scope(), ctx.lang, input, file(ctx)),
  );
  r.call(c.meituanCreateErrors, (input, ctx) => service.errorFile(ctx.actor, input.fileId));
  r.call(c.meituanExport, async (input, ctx) => service.download(await ctx.scope(), input, ctx.lang));
  r.call(c.meituanLocations, (_input, ctx) => service.locations(ctx.lang));
  r.call(c.meituanBatchNumbers, async (_input, ctx) => service.batchNumbers(await ctx.scope()));
  r.call(c.meituanComplete, async (input, ctx) => service.complete(ctx.actor, await ctx.scope(), input.ids));
}
