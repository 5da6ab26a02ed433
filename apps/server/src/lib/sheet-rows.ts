import { Worker } from 'node:worker_threads';
import { currentTenant, FairTurns } from './fair-turns.ts';
import { parseBudgetMs } from './parse-budget.ts';
import type { SheetRowsJob, SheetRowsReply } from './sheet-rows.worker.ts';

const WORKER = new URL('./sheet-rows.worker.ts', import.meta.url);
/** A sheet of a few thousand rows reads in well under a second; these only stop a crafted file (at most 60 s, less for a small one). */
const TIME_LIMIT_MS = 60_000;
const MEMORY_MB = 256;
/**
 * One sheet at a time, plus one more for small files: two cores are shared with the server, the
 * imports and the exports. Turns go by customer (lib/fair-turns.ts), so a one-row sheet of one
 * customer never waits behind another's big sheets (issue 27); a file this small is a few hundred
 * rows at most and reads in well under a second.
 */
const SMALL_SHEET_BYTES = 64 * 1024;
const turns = new FairTurns(1, 1);

/**
 * One worker kept started and idle (its modules loaded), as the parse pool does: starting one
 * was most of a small sheet's read, and sheets waiting in line each paid it in turn. It is made
 * as a read begins, so the next read in line finds it ready; idle, it keeps nothing alive, and
 * each read still gets a fresh worker (nothing carries over between customers' files).
 */
let spare: Worker | null = null;
function spawn(): Worker {
  const w = new Worker(WORKER, { resourceLimits: { maxOldGenerationSizeMb: MEMORY_MB } });
  w.unref();
  w.on('error', () => {});
  w.once('exit', () => spare === w && (spare = null));
  return w;
}
function takeWorker(): Worker {
  const w = spare ?? spawn();
  spare = spawn();
  w.ref();
  return w;
}

/**
 * The rows of an uploaded workbook's first sheet as text, read in a worker thread with a heap
 * and a time limit (sheet-rows.worker.ts). A problem with the file comes back as a message key.
 */
export async function readSheetRows(
  file: Buffer,
  maxRows: number,
  opts: { columns?: number } = {},
): Promise<SheetRowsReply> {
  const release = await turns.take({ tenant: currentTenant(), small: file.length <= SMALL_SHEET_BYTES });
  try {
    return await runOnce(file, maxRows, opts.columns);
  } finally {
    release();
  }
}

function runOnce(file: Buffer, maxRows: number, columns: number | undefined): Promise<SheetRowsReply> {
  return new Promise((resolve) => {
    const worker = takeWorker();
    let settled = false;
    const finish = (reply: SheetRowsReply) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(reply);
    };
    const timer = setTimeout(
      () => finish({ type: 'problem', key: 'workbookUnreadable' }),
      parseBudgetMs(file.length, TIME_LIMIT_MS),
    );
    worker.once('message', (m: SheetRowsReply) => finish(m));
    worker.once('error', () => finish({ type: 'problem', key: 'workbookUnreadable' }));
    worker.once('exit', () => finish({ type: 'problem', key: 'workbookUnreadable' }));
    const copy = new Uint8Array(file);
    worker.postMessage({ file: copy, maxRows, columns } satisfies SheetRowsJob, [copy.buffer]);
  });
}
