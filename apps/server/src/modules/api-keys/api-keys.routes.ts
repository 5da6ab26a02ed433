import { apiKeys } from '@console/contract';
import type { Registrar } from '../../http/register-call.ts';
import type { ApiKeysService } from './api-keys.service.ts';

export function apiKeysRoutes(r: Registrar, service: ApiKeysService) {
  r.call(apiKeys.apiKeyList, async (input, ctx) => service.list(ctx.actor, await ctx.scope(), input));
  r.call(apiKeys.apiKeyCreate, async (input, ctx) => service.create({ actor: ctx.actor, ip: ctx.ip }, input));
  r.call(apiKeys.apiKeyRevoke, async (input, ctx) =>
    service.revoke({ actor: ctx.actor, ip: ctx.ip }, await ctx.scope(), input.id),
  );
}
