import { exportJobs } from '@console/contract';
import type { Registrar } from '../../http/register-call.ts';
import type { ExportDownloads } from './export-downloads.ts';

/**
 * `export/progress`: how far a download of the caller's has got, whichever instance builds it
 * ("failed" once an async one's builder is gone); `export/file`: the file of one asked for
 * without waiting, once built, from any instance.
 */
export function exportJobsRoutes(r: Registrar, downloads: ExportDownloads) {
  r.call(exportJobs.exportProgress, (input, ctx) => downloads.progress(ctx.actor.userId, input.id));
  r.call(exportJobs.exportFile, (input, ctx) => downloads.file(ctx.actor.userId, input.id));
}
