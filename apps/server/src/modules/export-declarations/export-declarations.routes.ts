import { exportDeclarations as c } from '@console/contract';
import type { CallContext } from '../../http/call-context.ts';
import type { Registrar } from '../../http/register-call.ts';
import type { ExportDeclarationsService } from './export-declarations.service.ts';

export function exportDeclarationsRoutes(r: Registrar, service: ExportDeclarationsService) {
  const file = (ctx: CallContext) => ctx.files.find((f) => f.field === 'file') ?? ctx.files[0];
  r.call(c.exportDeclarations, async (input, ctx) => service.page(await ctx.scope(), ctx.lang, input));
  r.call(c.updateExportDeclaration, async (input, ctx) =>
    service.update(ctx.actor, await ctx.scope(), ctx.lang, input),
  );
  r.call(c.updateExportDeclarationBatch, async (input, ctx) =>
    service.updateBatch(ctx.actor, await ctx.scope(), ctx.lang, 'orderNo', input.commit === 'true', file(ctx)),
  );
  r.call(c.updateExportDeclarationBatch2, async (input, ctx) =>
    service.updateBatch(ctx.actor, await ctx.scope(), ctx.lang, 'waybillNo', input.commit === 'true', file(ctx)),
  );
  r.call(c.exportDeclarationBatchRun, (input, ctx) => service.batchRun(ctx.actor, ctx.lang, input.id));
  r.call(c.exportDeclarationErrors, (input, ctx) => service.errorFile(ctx.actor, input.fileId));
  r.call(c.downloadExportDeclarations, async (input, ctx) =>
    service.download(await ctx.scope(), input, 'orderNo', ctx.lang),
  );
  r.call(c.downloadExportDeclarations2, async (input, ctx) =>
    service.download(await ctx.scope(), input, 'waybillNo', ctx.lang),
  );
  r.call(c.downloadDeclareAtCustoms, async (input, ctx) =>
    service.downloadDeclareAtCustoms(await ctx.scope(), input, ctx.lang),
  );
  r.call(c.uploadPermit, async (input, ctx) =>
    service.uploadPermit(ctx.actor, await ctx.scope(), ctx.lang, input.orderId, file(ctx)),
  );
  r.call(c.downloadPermitPdf, async (input, ctx) =>
    service.permitPdf(ctx.actor, await ctx.scope(), input.orderId, ctx.ip),
  );
}
