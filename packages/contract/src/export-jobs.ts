import { z } from 'zod';
import { defineCall } from './call.ts';
import { text } from './fields.ts';
import { pattern } from './messages.ts';

/**
 * Progress of a workbook download (Order List export, Batch List downloads). The console
 * names the download with a random `progressId` and asks `export/progress` about it while
 * the file is built, the way the batch import asks `order/batch/progress`.
 */
export const progressId = text({ max: 64 }).regex(pattern(/^[A-Za-z0-9-]{8,64}$/, 'progressId'));
export const progressField = { progressId: progressId.optional() };

export const exportPhase = z.enum(['unknown', 'waiting', 'writing', 'done', 'failed']);
export type ExportPhase = z.infer<typeof exportPhase>;

export const exportProgress = defineCall({
  path: 'export/progress',
  summary:
    'Progress of a download named by its progressId: waiting for a free worker, rows written of the total, done or failed (unknown: not yet started here, or not yours).',
  request: z.object({ id: progressId }),
  response: z.object({
    phase: exportPhase,
    rows: z.number().int(),
    /** Rows the workbook will hold, once counted. */
    total: z.number().int().nullable(),
  }),
});
export type ExportProgress = z.infer<typeof exportProgress.response>;
