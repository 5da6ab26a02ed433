import { selfSends as c } from '@console/contract';
import type { Registrar } from '../../http/register-call.ts';
import type { SelfSendsService } from './self-sends.service.ts';

export function selfSendsRoutes(r: Registrar, service: SelfSendsService) {
  r.call(c.saveSelfSend, async (input, ctx) => service.save(ctx.actor, await ctx.scope(), ctx.lang, input));
  r.call(c.selfSendList, async (input, ctx) => service.page(await ctx.scope(), input));
}
