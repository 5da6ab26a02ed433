import { v1 } from '@console/contract';
import { Download } from '../../http/call-context.ts';
import type { V1Context, V1Registrar } from '../../http/register-v1.ts';
import { streamAndRemove } from '../../lib/workbook-job.ts';
import type { LabelsService } from './labels.service.ts';

const PDF = 'application/pdf';

/**
 * Waybill label PDFs through v1 (issue 39): the console's own label download (`labelA`): the same
 * order-life check and print count, drawn in a render worker while the request waits, as the
 * console's download waits (docs/decisions/2026-12-07-v1-labels-sync.md). Another tenant's order
 * is "not found" as in the console.
 */
export function labelsV1Routes(r: V1Registrar, service: LabelsService) {
  const pdf = async (ctx: V1Context, ids: number[], name: string) =>
    new Download(name, PDF, streamAndRemove(await service.labelA(ctx.actor, ctx.scope, ctx.lang, { ids })));
  r.call(v1.orderLabel, async ({ params }, ctx) => pdf(ctx, [params.id], `label-${params.id}.pdf`));
  r.call(v1.labels, async ({ query }, ctx) => pdf(ctx, query.ids, `labels-${query.ids.length}.pdf`));
}
