import { exportJobs } from '@console/contract';
import type { Registrar } from '../../http/register-call.ts';
import type { ExportProgressStore } from '../../lib/export-progress.ts';

/** `export/progress`: how far a download of the caller's has got, whichever instance builds it. */
export function exportJobsRoutes(r: Registrar, progress: ExportProgressStore) {
  r.call(exportJobs.exportProgress, (input, ctx) => progress.read(ctx.actor.userId, input.id));
}
