import { mda } from '@console/contract';
import { Download } from '../../http/call-context.ts';
import type { Registrar } from '../../http/register-call.ts';
import { tracked } from '../../lib/export-progress.ts';
import { streamAndRemove } from '../../lib/workbook-job.ts';
import type { MdaSelection } from './mda.repository.ts';
import type { MdaService, PdGrouping } from './mda.service.ts';
import type { MdaLayout } from './mda.workbooks.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PDF = 'application/pdf';
const stamp = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 16).replace(/[-:T]/g, '');

type Input = { id?: number; ids?: number[]; progressId?: string };
const selection = (input: Input): MdaSelection => (input.ids ? { ids: input.ids } : { batchId: input.id! });

export function mdaRoutes(r: Registrar, service: MdaService) {
  const workbooks: [typeof mda.downloadMDABatch | typeof mda.downloadOrderMDABatchByOrder, MdaLayout, string][] = [
    [mda.downloadOrderMDABatch, 'order', 'MDA-orders'],
    [mda.downloadOrderMDABatchByOrder, 'order', 'MDA-orders'],
    [mda.downloadMDABatch, 'lines', 'MDA'],
    [mda.downloadMDABatch2, 'category', 'MDA2'],
  ];
  for (const [def, layout, name] of workbooks)
    r.call(def, async (input: Input, ctx) => {
      const progress = ctx.trackExport(input.progressId);
      const file = await tracked(progress, async () =>
        service.workbook(await ctx.scope(), selection(input), layout, progress),
      );
      return new Download(`${name}-${stamp()}.xlsx`, XLSX, streamAndRemove(file));
    });

  const pds: [typeof mda.downloadMDA2PD | typeof mda.downloadMDA2PDByOrder, PdGrouping, string][] = [
    [mda.downloadMDA2PD, 'order', 'PD'],
    [mda.downloadMDA2PDByOrder, 'order', 'PD'],
    [mda.downloadMDA2PDBatch, 'batch', 'PD-batch'],
    [mda.downloadMDA2PDBatchByOrder, 'batch', 'PD-batch'],
  ];
  for (const [def, grouping, name] of pds)
    r.call(def, async (input: Input, ctx) => {
      const progress = ctx.trackExport(input.progressId);
      const file = await tracked(progress, async () =>
        service.pd(await ctx.scope(), selection(input), grouping, progress),
      );
      return new Download(`${name}-${stamp()}.pdf`, PDF, streamAndRemove(file));
    });
}
