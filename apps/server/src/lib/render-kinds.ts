/**
 * The closed set of functions a file worker may run (issue 36 #1): a render function
 * (`(arg, out, onProgress) => Promise<void>`, a PDF) or a row mapper (`(row, arg) => cells`, a
 * workbook's row), each named by a kind. A job names its kind, never a module: a render's input
 * may cross the file store to another instance, and a module URL there (a `data:` URL written by
 * whoever can write the store) was imported and run by the worker. The kind is looked up here, in
 * the process that hands the job to its worker thread; an unknown kind runs nothing.
 */
export interface FunctionRef {
  module: string;
  name: string;
}

const at = (file: string, name: string): FunctionRef => ({ module: new URL(file, import.meta.url).href, name });

const RENDERS = new Map<string, FunctionRef>([
  ['labels', at('../modules/labels/labels.render.ts', 'renderLabels')],
  ['pickup-slip', at('../modules/pickups/pickups.slip.ts', 'renderSlip')],
  ['mda-pd', at('../modules/mda/mda.render.ts', 'renderPd')],
]);

const MAPPERS = new Map<string, FunctionRef>([
  ['orders', at('../modules/orders/orders.export.ts', 'orderExportRow')],
  ['bills', at('../modules/bills/bills.export.ts', 'statementRow')],
  ['order-reviews', at('../modules/order-reviews/order-reviews.export.ts', 'reviewExportRow')],
  ['export-nominations', at('../modules/export-nominations/export-nominations.export.ts', 'nominationExportRow')],
  ['meituan', at('../modules/meituan/meituan.export.ts', 'meituanExportRow')],
  ['batch-orders', at('../modules/batches/batch-orders.export.ts', 'batchOrderExportRow')],
]);

export type RenderKind = 'labels' | 'pickup-slip' | 'mda-pd';
export type MapperKind = 'orders' | 'bills' | 'order-reviews' | 'export-nominations' | 'meituan' | 'batch-orders';

export const renderOfKind = (kind: unknown): FunctionRef | undefined =>
  typeof kind === 'string' ? RENDERS.get(kind) : undefined;
export const mapperOfKind = (kind: unknown): FunctionRef | undefined =>
  typeof kind === 'string' ? MAPPERS.get(kind) : undefined;

/** Every kind, for the test that checks each names a function its module exports. */
export const allKinds = () => ({ renders: new Map(RENDERS), mappers: new Map(MAPPERS) });

/**
 * Adds a render kind in this process only (the render queue's and file pool's tests hold a
 * worker with one of their own). Nothing read from the store or a request can reach it: only
 * code already running here calls it. An existing kind is never replaced.
 */
export function registerRenderKind(kind: string, ref: FunctionRef): void {
  const had = RENDERS.get(kind);
  if (had && (had.module !== ref.module || had.name !== ref.name)) throw new Error(`render kind ${kind} is taken`);
  RENDERS.set(kind, ref);
}
