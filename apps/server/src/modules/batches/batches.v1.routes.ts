import { v1 } from '@console/contract';
import type { V1Registrar } from '../../http/register-v1.ts';
import type { BatchesService } from './batches.service.ts';

/**
 * `GET /api/v1/batches/{id}` (issue 39): an import batch's status and counts, read as the console's
 * batch page reads it (an expired preview is expired first); another tenant's batch is not found.
 */
export function batchesV1Routes(r: V1Registrar, service: BatchesService) {
  r.call(v1.getBatch, async ({ params }, ctx) => service.progress(ctx.scope, params.id, ctx.lang));
}
