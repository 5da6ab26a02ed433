import { recipients as c } from '@console/contract';
import type { Registrar } from '../../http/register-call.ts';
import type { RecipientsService } from './recipients.service.ts';

export function recipientsRoutes(r: Registrar, service: RecipientsService) {
  r.call(c.recipientList, async (input, ctx) => service.page(await ctx.scope(), input));
  r.call(c.recipientInfo, async (input, ctx) => service.info(await ctx.scope(), input.id));
  r.call(c.createRecipient, async (input, ctx) => service.create(ctx.actor, await ctx.scope(), ctx.lang, input));
  r.call(c.updateRecipient, async (input, ctx) => service.update(ctx.staff, await ctx.scope(), ctx.lang, input));
  r.call(c.deleteRecipient, async (input, ctx) => service.remove(ctx.staff, await ctx.scope(), input.id));
}
