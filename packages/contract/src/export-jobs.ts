import { z } from 'zod';
import { type CallDef, defineCall } from './call.ts';
import { ErrorCode } from './envelope.ts';
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

/**
 * A download asked for without waiting (issue 38 item 6): the console sends the download call
 * itself with `Prefer: respond-async` and is answered 202 at once with the download's id (its
 * `progressId`, or one the server made); `export/progress` follows it, and `export/file` then
 * answers the finished file from any instance. Without the header a download call answers the
 * file as it always has (other clients, the spec).
 */
export const RESPOND_ASYNC = 'respond-async';
export const downloadAccepted = z.object({ id: progressId });
export type DownloadAccepted = z.infer<typeof downloadAccepted>;

export const exportFile = defineCall({
  path: 'export/file',
  summary:
    'The finished file of a download asked for with `Prefer: respond-async`, with its filename; the caller’s own only (another user’s id is as unknown as a wrong one, 404). A download still being built answers 409 `downloadNotReady`; one whose building instance stopped (a restart, a deploy) 503 `downloadInterrupted` (ask the download again); a failed one answers its failure, as the download call would have. The file is removed once fetched (a second fetch: 404).',
  request: z.object({ id: progressId }),
  response: z.null(),
  kind: 'blob',
  file: 'stored',
  answers: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
});

/** The status of a download accepted without waiting: `{ code: 202, data: { id } }`, with `Preference-Applied: respond-async`. */
export const ACCEPTED = 202;

/**
 * Whether a call may be asked for without waiting: every signed-in download (blob call) but
 * `export/file`, which answers the finished file itself. What the server honours, the OpenAPI
 * document declares (202 and the `Prefer` header) and the console asks.
 */
export const answersAsync = (call: CallDef): boolean =>
  call.kind === 'blob' && call.auth && call.path !== exportFile.path;
