import { ErrorCode } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import type { ProgressTracker } from '../../lib/export-progress.ts';
import type { Scope } from '../../lib/scope.ts';
import { buildWorkbookFile, renderFile } from '../../lib/workbook-job.ts';
import { buildMdaOrder, type MdaOrder } from './mda.data.ts';
import type { PdDocument, PdRender } from './mda.render.ts';
import { createMdaRepository, type MdaSelection } from './mda.repository.ts';
import { mdaWorkbook, type MdaLayout } from './mda.workbooks.ts';

const RENDER = { kind: 'mda-pd' } as const;

/** The calendar day in UTC+8 (spec: displayed times add 8 hours). */
const chinaDay = (d: Date) => new Date(d.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);

export type PdGrouping = 'order' | 'batch';

/**
 * The MDA downloads: reads the orders in the caller's scope (a batch or chosen orders), builds
 * the MDA data, and writes a workbook or the PD PDF in a worker with progress. A batch out of
 * scope is 404; chosen orders are refused whole (404) when any one is out of scope or gone, so
 * a file never mixes in or leaves out orders silently.
 */
export function createMdaService(deps: { db: Database; clock: () => Date; fontDir: string }) {
  const repo = createMdaRepository(deps.db);

  async function load(scope: Scope, sel: MdaSelection): Promise<MdaOrder[]> {
    if ('batchId' in sel && !(await repo.batch(scope, sel.batchId)))
      throw new AppError(ErrorCode.NOT_FOUND, 'mdaBatchNotFound');
    const orders = await repo.orders(scope, sel);
    if ('ids' in sel) {
      const missing = new Set(sel.ids);
      for (const o of orders) missing.delete(o.id);
      if (missing.size) throw new AppError(ErrorCode.NOT_FOUND, 'mdaOrdersNotFound', null, { count: missing.size });
    }
    const [items, decimals] = await Promise.all([repo.items(orders.map((o) => o.id)), repo.decimals()]);
    const itemsOf = Map.groupBy(items, (i) => i.order_id);
    return orders.map((o) => buildMdaOrder(o, itemsOf.get(o.id) ?? [], decimals));
  }

  return {
    /** The MDA data itself (the tests and the benchmark read it). */
    load,

    /** A workbook of one layout; resolves with its temporary file (the caller streams and removes it). */
    async workbook(scope: Scope, sel: MdaSelection, layout: MdaLayout, progress?: ProgressTracker) {
      const orders = await load(scope, sel);
      return buildWorkbookFile(deps.db, mdaWorkbook(layout, orders), progress);
    },

    /** The PD PDF: one document per order, or one per batch (the orders without a batch together). */
    async pd(scope: Scope, sel: MdaSelection, grouping: PdGrouping, progress?: ProgressTracker) {
      const orders = await load(scope, sel);
      const documents: PdDocument[] =
        grouping === 'order'
          ? orders.map((o) => ({ number: o.orderNo, consolidated: false, orders: [o] }))
          : [...Map.groupBy(orders, (o) => o.batchNo ?? '').entries()].map(([batchNo, list]) => ({
              number: batchNo || list[0]!.orderNo,
              consolidated: true,
              orders: list,
            }));
      const arg: PdRender = { documents, date: chinaDay(deps.clock()), fontDir: deps.fontDir };
      return renderFile({ ...RENDER, arg }, { ext: 'pdf', total: orders.length }, progress);
    },
  };
}
export type MdaService = ReturnType<typeof createMdaService>;
