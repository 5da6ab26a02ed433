import { z } from 'zod';
import { defineCall, type FileKind, nothing } from './call.ts';
import { ErrorCode } from './envelope.ts';
import { progressField } from './export-jobs.ts';
import { idOf } from './fields.ts';
import type { RouteName } from './routes.ts';

/**
 * MDA downloads (issue 15, spec §7): the data a customs broker keys into NACCS for a Japanese
 * export declaration (procedure MDA, shipments over JPY 200,000), as workbooks, and the same
 * data as a commercial invoice and packing list ("PD") PDF in English and Japanese.
 *
 * - A batch (`id`) or chosen orders (`ids`): batch variants sit on the Batch List
 *   (`order.batchList`), the "ByOrder" variants on the Order List toolbar (`order.list`).
 * - Workbooks: `downloadOrderMDABatch*` one row per order (the declaration header);
 *   `downloadMDABatch` one row per item line grouped per order; `downloadMDABatch2` the lines
 *   summarised per export category within each order (what the broker keys as one NACCS line).
 * - PD: `downloadMDA2PD*` (without "Batch") one invoice + packing list per order;
 *   `downloadMDA2PDBatch*` one consolidated invoice + packing list per batch.
 * Every download runs off the event loop with progress (`export/progress`) and no timeout.
 */

/** Chosen orders at most in one ByOrder download (a batch can hold 10,000). */
export const MDA_BY_ORDER_MAX = 10_000;

const batchRequest = z.object({ id: idOf, ...progressField });
const ordersRequest = z.object({ ids: z.array(idOf).min(1).max(MDA_BY_ORDER_MAX), ...progressField });

const blob = <R extends z.ZodType>(
  path: string,
  permission: RouteName,
  request: R,
  summary: string,
  file: FileKind = 'xlsx',
) =>
  defineCall({
    path,
    summary,
    permission,
    request,
    response: nothing,
    kind: 'blob',
    file,
    timeout: 0,
    // A batch or chosen orders the caller cannot see.
    answers: [ErrorCode.NOT_FOUND],
  });

export const downloadOrderMDABatch = blob(
  'order/downloadOrderMDABatch',
  'order.batchList',
  batchRequest,
  "A batch's MDA data as a workbook, one row per order: exporter (export nomination), consignee, description, export category, quantity, value in JPY, gross weight.",
);
export const downloadOrderMDABatchByOrder = blob(
  'order/downloadOrderMDABatchByOrder',
  'order.list',
  ordersRequest,
  'The MDA data of chosen orders as a workbook, one row per order (as downloadOrderMDABatch).',
);
export const downloadMDABatch = blob(
  'order/downloadMDABatch',
  'order.batchList',
  batchRequest,
  "A batch's MDA lines (layout 1): one row per item line, grouped per order, with NACCS field names.",
);
export const downloadMDABatch2 = blob(
  'order/downloadMDABatch2',
  'order.batchList',
  batchRequest,
  "A batch's MDA lines (layout 2): each order's lines summarised per export category (one NACCS line each).",
);
export const downloadMDA2PD = blob(
  'order/downloadMDA2PD',
  'order.batchList',
  batchRequest,
  "A batch's commercial invoice and packing list (PDF, English and Japanese), one per order.",
  'pdf',
);
export const downloadMDA2PDBatch = blob(
  'order/downloadMDA2PDBatch',
  'order.batchList',
  batchRequest,
  "A batch's consolidated commercial invoice and packing list (PDF, English and Japanese): one document for the batch.",
  'pdf',
);
export const downloadMDA2PDByOrder = blob(
  'order/downloadMDA2PDByOrder',
  'order.list',
  ordersRequest,
  'The commercial invoice and packing list of chosen orders (PDF), one per order.',
  'pdf',
);
export const downloadMDA2PDBatchByOrder = blob(
  'order/downloadMDA2PDBatchByOrder',
  'order.list',
  ordersRequest,
  'A consolidated commercial invoice and packing list (PDF) of chosen orders, one document per batch they belong to.',
  'pdf',
);
