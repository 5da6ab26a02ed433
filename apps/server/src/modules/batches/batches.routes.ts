import { batches as b } from '@console/contract';
import type { CallContext } from '../../http/call-context.ts';
import { tracked } from '../../lib/export-progress.ts';
import type { Registrar } from '../../http/register-call.ts';
import type { BatchesService } from './batches.service.ts';

export function batchesRoutes(r: Registrar, service: BatchesService) {
  const file = (ctx: CallContext) => ctx.files.find((f) => f.field === 'file') ?? ctx.files[0];
  const upload = (call: Parameters<BatchesService['upload']>[0]) => async (input: b.UploadFields, ctx: CallContext) =>
    service.upload(call, ctx.actor, await ctx.scope(), input, file(ctx), ctx.lang);
  r.call(b.create, upload('create'));
  r.call(b.createImport, upload('createImport'));
  r.call(b.createImportByBoxC, upload('createImportByBoxC'));
  r.call(b.createUsaBoxcImport, upload('createUsaBoxcImport'));
  r.call(b.createEmsImport, upload('createEmsImport'));
  r.call(b.confirm, async (input, ctx) =>
    service.confirm(ctx.actor, await ctx.scope(), input.id, input.confirmations, ctx.lang, input.skipInvalid),
  );
  r.call(b.progress, async (input, ctx) => service.progress(await ctx.scope(), input.id, ctx.lang));
  r.call(b.errorWorkbook, async (input, ctx) => service.errorWorkbook(await ctx.scope(), input.id));
  r.call(b.batches, async (input, ctx) => service.page(await ctx.scope(), input));
  r.call(b.search, async (input, ctx) => service.search(await ctx.scope(), input));
  r.call(b.remove, async (input, ctx) => service.remove(await ctx.scope(), input.id));
  r.call(b.downloadExcel, async (input, ctx) => {
    const progress = ctx.trackExport(input.progressId);
    return tracked(progress, async () => service.downloadExcel(await ctx.scope(), input.id, ctx.lang, progress));
  });
  r.call(b.downloadExcelByTime, async (input, ctx) => {
    const progress = ctx.trackExport(input.progressId);
    return tracked(progress, async () =>
      service.downloadExcelByTime(await ctx.scope(), input.period, ctx.lang, progress),
    );
  });
  for (const [kind, def] of Object.entries(b.templates)) {
    r.call(def, () => service.template(kind as b.TemplateKind));
  }
}
