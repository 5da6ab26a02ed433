import { v1 } from '@console/contract';
import type { V1Registrar } from '../../http/register-v1.ts';
import type { WebhooksService } from './webhooks.service.ts';

/** The v1 webhook calls (issue 39 item 4): scope `webhooks:manage`, tenancy by the key's scope. */
export function webhooksV1Routes(r: V1Registrar, service: WebhooksService) {
  const who = (ctx: Parameters<Parameters<V1Registrar['call']>[1]>[1]) => ({ actor: ctx.actor, ip: ctx.ip });
  r.call(v1.listWebhookEndpoints, async ({ query }, ctx) => service.list(ctx.scope, query.customerId));
  r.call(v1.createWebhookEndpoint, async ({ body }, ctx) => service.create(who(ctx), ctx.scope, body));
  r.call(v1.getWebhookEndpoint, async ({ params }, ctx) => service.get(ctx.scope, params.id));
  r.call(v1.updateWebhookEndpoint, async ({ params, body }, ctx) =>
    service.update(who(ctx), ctx.scope, params.id, body),
  );
  r.call(v1.deleteWebhookEndpoint, async ({ params }, ctx) => service.remove(who(ctx), ctx.scope, params.id));
  r.call(v1.rotateWebhookSecret, async ({ params }, ctx) => service.rotate(who(ctx), ctx.scope, params.id));
  r.call(v1.testWebhookEndpoint, async ({ params }, ctx) => service.sendTest(ctx.scope, params.id));
  r.call(v1.listWebhookDeliveries, async ({ query }, ctx) => service.deliveries(ctx.scope, query));
  r.call(v1.getWebhookDelivery, async ({ params }, ctx) => service.delivery(ctx.scope, params.id));
  r.call(v1.resendWebhookDelivery, async ({ params }, ctx) => service.resend(who(ctx), ctx.scope, params.id));
}
