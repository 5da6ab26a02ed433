import { jdAuthorize as c } from '@console/contract';
import type { FastifyInstance } from 'fastify';
import type { Registrar } from '../../http/register-call.ts';
import type { JdAuthorizeService } from './jd-authorize.service.ts';

export function jdAuthorizeRoutes(r: Registrar, app: FastifyInstance, service: JdAuthorizeService) {
  r.call(c.jdAuthorizeList, async (input, ctx) => service.page(await ctx.scope(), input));
  r.call(c.jdAuthorizeSelect, async (input, ctx) => service.select(await ctx.scope(), input.customerId));
  r.call(c.jdAuthorizeInfo, async (input, ctx) => service.info(await ctx.scope(), input.id));
  r.call(c.createJdAuthorize, async (input, ctx) => service.create(ctx.actor, await ctx.scope(), input));
  r.call(c.updateJdAuthorize, async (input, ctx) => service.update(ctx.staff, await ctx.scope(), input));
  r.call(c.deleteJdAuthorize, async (input, ctx) => service.remove(ctx.staff, await ctx.scope(), input.id));
  r.call(c.getJdAuthorizeUrl, async (input, ctx) => service.authorizeUrl(ctx.actor, await ctx.scope(), input.id));
  r.call(c.getJdToken, async (input, ctx) => service.exchange(ctx.actor, await ctx.scope(), input.code, input.state));
  r.call(c.renewJdToken, async (input, ctx) => service.renew(await ctx.scope(), input.id));

  /**
   * JD sends the browser here with `code` and `state` (or `error` when the user declined). No
   * token travels with a redirect, so nothing is decided here: the console page takes the pair
   * and calls getJdToken as the logged-in user, where the state is checked. Only short, plain
   * values are passed on (no open redirect: the target is fixed).
   */
  app.get(c.JD_CALLBACK_PATH, async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    const pick = (k: string) => {
      const v = q[k];
      return typeof v === 'string' && v.length <= 512 && /^[\w.~-]+$/.test(v) ? v : '';
    };
    const target = new URLSearchParams();
    const code = pick('code');
    const state = pick('state');
    if (code && state) {
      target.set('jdCode', code);
      target.set('jdState', state);
    } else target.set('jdError', pick('error') || 'missing_code');
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    // In the fragment: never sent to a server (so never in a log or a Referer), and not part of
    // the console's tab key, so the list's own tab opens.
    return reply.redirect(`/home/order/jdAuthorize#${target.toString()}`);
  });
}
