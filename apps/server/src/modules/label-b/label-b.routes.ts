import { labelB as c } from '@console/contract';
import type { CallContext } from '../../http/call-context.ts';
import type { Registrar } from '../../http/register-call.ts';
import type { LabelBService } from './label-b.service.ts';

export function labelBRoutes(r: Registrar, service: LabelBService) {
  const file = (ctx: CallContext) => ctx.files.find((f) => f.field === 'file') ?? ctx.files[0];
  r.call(c.labelBList, async (input, ctx) => service.page(await ctx.scope(), ctx.lang, input));
  r.call(c.labelBProgress, async (input, ctx) => service.progress(await ctx.scope(), ctx.lang, input.id));
  r.call(c.labelBInfo, async (input, ctx) => service.info(await ctx.scope(), ctx.lang, input.id));
  r.call(c.labelBTemplate, (_input, ctx) => service.template(ctx.lang));
  r.call(c.labelBExport, async (input, ctx) => service.exportRows(await ctx.scope(), ctx.lang, input.id));
  r.call(c.labelBPrompt, async (input, ctx) =>
    service.prompt(ctx.actor, await ctx.scope(), ctx.lang, input, file(ctx)),
  );
  r.call(c.labelBCreate, async (input, ctx) => service.create(ctx.actor, await ctx.scope(), ctx.lang, input.id));
}
