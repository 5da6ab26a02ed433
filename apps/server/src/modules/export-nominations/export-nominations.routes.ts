import { exportNominations as c } from '@console/contract';
import type { Registrar } from '../../http/register-call.ts';
import { tracked } from '../../lib/export-progress.ts';
import type { ExportNominationsService } from './export-nominations.service.ts';

export function exportNominationsRoutes(r: Registrar, service: ExportNominationsService) {
  r.call(c.exportNominationList, async (input, ctx) => service.page(await ctx.scope(), input));
  r.call(c.exportNomination, async (input, ctx) => service.info(await ctx.scope(), input.id));
  r.call(c.createExportNomination, async (input, ctx) => service.create(ctx.actor, await ctx.scope(), input));
  r.call(c.updateExportNomination, async (input, ctx) => service.update(await ctx.scope(), input));
  r.call(c.updateReceiveEmail, async (input, ctx) =>
    service.updateReceiveEmail(await ctx.scope(), input.id, input.receiveEmail),
  );
  r.call(c.deleteExportNomination, async (input, ctx) => service.remove(await ctx.scope(), input.id));
  r.call(c.exportExportNominations, async (input, ctx) => {
    const { progressId, ...filters } = input;
    const progress = ctx.trackExport(progressId);
    return tracked(progress, async () => service.download(await ctx.scope(), filters, ctx.lang, progress));
  });
}
