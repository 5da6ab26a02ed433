import { files, labels } from '@console/contract';
import { Download } from '../../http/call-context.ts';
import type { Registrar } from '../../http/register-call.ts';
import { tracked } from '../../lib/export-progress.ts';
import { streamAndRemove } from '../../lib/workbook-job.ts';
import type { LabelsService } from './labels.service.ts';

const PDF = 'application/pdf';
const stamp = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 16).replace(/[-:T]/g, '');

export function labelsRoutes(r: Registrar, service: LabelsService) {
  r.call(labels.downloadLabelA, async (input, ctx) => {
    const progress = ctx.trackExport(input.progressId);
    const file = await tracked(progress, async () =>
      service.labelA(ctx.actor, await ctx.scope(), ctx.lang, input, progress),
    );
    return new Download(`labelA-${stamp()}.pdf`, PDF, streamAndRemove(file));
  });
  r.call(labels.printLabelA, async (input, ctx) => service.startPrint(ctx.actor, await ctx.scope(), ctx.lang, input));
  r.call(labels.printLabelAResult, async (input, ctx) => service.printResult(ctx.actor, ctx.lang, input.jobId));
  r.call(files.downloadFile, async (input, ctx) => {
    const f = await service.file(ctx.actor, input.id);
    return new Download(f.name, f.mime, f.body);
  });
  r.call(labels.downloadLabelProduct, async (input, ctx) => {
    const progress = ctx.trackExport(input.progressId);
    const file = await tracked(progress, async () => service.labelProduct(await ctx.scope(), input, progress));
    return new Download(`labelProduct-${stamp()}.pdf`, PDF, streamAndRemove(file));
  });
}
