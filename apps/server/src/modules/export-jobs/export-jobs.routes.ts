import { exportJobs } from '@console/contract';
import type { Registrar } from '../../http/register-call.ts';
import { readExportProgress } from '../../lib/export-progress.ts';

/** `export/progress`: how far a download of the caller's has got. */
export function exportJobsRoutes(r: Registrar) {
  r.call(exportJobs.exportProgress, (input, ctx) => readExportProgress(ctx.actor.userId, input.id));
}
