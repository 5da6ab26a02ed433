import { webhooks } from '@console/contract';
import type { Registrar } from '../../http/register-call.ts';
import type { WebhooksService } from './webhooks.service.ts';

/**
 * The console's webhook calls (issue 39 item 5): the v1 calls' service, with the signed-in
 * caller's customer scope where the v1 side has the key's. One implementation, two doors.
 */
export function webhooksRoutes(r: Registrar, service: WebhooksService) {
  type Ctx = Parameters<Parameters<Registrar['call']>[1]>[1];
  const who = (ctx: Ctx) => ({ actor: ctx.actor, ip: ctx.ip });
  r.call(webhooks.webhookEndpointList, async (input, ctx) => service.list(await ctx.scope(), input.customerId));
  r.call(webhooks.webhookEndpointCreate, async (input, ctx) => service.create(who(ctx), await ctx.scope(), input));
  r.call(webhooks.webhookEndpointUpdate, async ({ id, ...input }, ctx) =>
    service.update(who(ctx), await ctx.scope(), id, input),
  );
  r.call(webhooks.webhookEndpointDelete, async ({ id }, ctx) => service.remove(who(ctx), await ctx.scope(), id));
  r.call(webhooks.webhookEndpointRotate, async ({ id }, ctx) => service.rotate(who(ctx), await ctx.scope(), id));
  r.call(webhooks.webhookEndpointTest, async ({ id }, ctx) => service.sendTest(await ctx.scope(), id));
  r.call(webhooks.webhookDeliveryList, async (input, ctx) => service.deliveries(await ctx.scope(), input));
  r.call(webhooks.webhookDeliveryGet, async ({ id }, ctx) => service.delivery(await ctx.scope(), id));
  r.call(webhooks.webhookDeliveryResend, async ({ id }, ctx) => service.resend(who(ctx), await ctx.scope(), id));
}
