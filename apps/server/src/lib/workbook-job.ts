import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';
import type { Config } from '../config.ts';
import { connectionOf, type Database } from '../db/database.ts';
import type { WorkbookRow, WorkbookSheet } from './workbook-writer.ts';

/**
 * Every workbook the server builds is a workbook job: the export declares its sheet
 * (columns, header) and its row source, and a worker thread reads the rows, writes the
 * .xlsx with ExcelJS's streaming writer into a temporary file and says when it is done.
 * The event loop only waits: an export of 100,000 orders built on it stalled every other
 * user's call for seconds and held the whole workbook (1.8 GB) in memory.
 *
 * Row sources:
 * - `query`: a compiled SELECT, read by the worker on its own connection a page at a time
 *   (the repository still writes the SQL); each row goes through `mapper` if given, else
 *   the columns' `key`s pick its cells.
 * - `rows`: rows already in memory (a search result, an import's failed rows), as cells.
 */
export interface WorkbookJob {
  sheet: WorkbookSheet;
  rows?: WorkbookRow[];
  query?: CompiledQuery;
  /**
   * A function of a module, run in the worker on each database row: `(row, arg) => cells`.
   * Functions cannot cross threads, so it is named by its module's URL and export name.
   */
  mapper?: { module: string; name: string; arg?: unknown };
}

/** What the worker is given (structured-cloned). */
export interface WorkbookJobData {
  sheet: WorkbookSheet;
  source:
    | { rows: WorkbookRow[] }
    | { records: Record<string, unknown>[] }
    | { query: { sql: string; parameters: readonly unknown[] }; database: Config['database'] };
  mapper?: WorkbookJob['mapper'];
  out: string;
}
export type WorkbookJobReply = { type: 'done'; size: number } | { type: 'failed'; message: string };

const WORKER = new URL('./workbook.worker.ts', import.meta.url);
/**
 * Jobs that run at once; more wait their turn. Each worker needs a core and a few tens of
 * MiB whatever its row count, so a burst of exports cannot take the machine.
 */
const CONCURRENT_JOBS = 2;
/** A safety net: a streaming job stays far below it. */
const WORKER_HEAP_MB = 256;

let running = 0;
const waiting: (() => void)[] = [];
async function slot(): Promise<() => void> {
  if (running >= CONCURRENT_JOBS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

const tempFile = () => path.join(os.tmpdir(), `console-workbook-${randomUUID()}.xlsx`);
const remove = (file: string) => fs.rm(file, { force: true }, () => {});

/** Runs the job in a worker; resolves with the path of the finished workbook (the caller removes it). */
export async function buildWorkbookFile(db: Database, job: WorkbookJob): Promise<string> {
  let source: WorkbookJobData['source'];
  if (job.query) {
    const database = connectionOf(db);
    // An in-memory SQLite database cannot be opened from another thread: its rows are read
    // here and handed over (test and experiment setups only).
    if (!database || (database.dialect === 'sqlite' && database.file === ':memory:'))
      source = { records: (await db.executeQuery<Record<string, unknown>>(job.query)).rows };
    else source = { query: { sql: job.query.sql, parameters: job.query.parameters }, database };
  } else source = { rows: job.rows ?? [] };
  const out = tempFile();
  const data: WorkbookJobData = { sheet: job.sheet, source, mapper: job.mapper, out };
  const release = await slot();
  try {
    await new Promise<void>((resolve, reject) => {
      const worker = new Worker(WORKER, {
        workerData: data,
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      });
      let reply: WorkbookJobReply | undefined;
      worker.once('message', (m: WorkbookJobReply) => (reply = m));
      worker.once('error', reject);
      worker.once('exit', (code) => {
        if (reply?.type === 'done') resolve();
        else reject(new Error(`workbook job failed: ${reply?.type === 'failed' ? reply.message : `exit ${code}`}`));
      });
    });
    return out;
  } catch (e) {
    remove(out);
    throw e;
  } finally {
    release();
  }
}

/** The finished workbook as a stream for a download; the file goes when the stream closes. */
export async function buildWorkbookStream(db: Database, job: WorkbookJob): Promise<Readable> {
  const file = await buildWorkbookFile(db, job);
  const stream = fs.createReadStream(file);
  stream.once('close', () => remove(file));
  return stream;
}

/** The finished workbook in memory, for the small ones kept through the storage interface. */
export async function buildWorkbookBuffer(db: Database, job: WorkbookJob): Promise<Buffer> {
  const file = await buildWorkbookFile(db, job);
  try {
    return await fs.promises.readFile(file);
  } finally {
    remove(file);
  }
}
