import { interceptions as c } from '@console/contract';
import type { Registrar } from '../../http/register-call.ts';
import type { InterceptionsService } from './interceptions.service.ts';

export function interceptionsRoutes(r: Registrar, service: InterceptionsService) {
  r.call(c.createInterception, async (input, ctx) => service.create(ctx.actor, await ctx.scope(), ctx.lang, input));
  r.call(c.interceptionList, async (input, ctx) => service.page(await ctx.scope(), input));
  r.call(c.cancelInterception, async (input, ctx) => service.cancel(ctx.actor, await ctx.scope(), ctx.lang, input));
}
