import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';
import type { Config } from '../config.ts';
import { connectionOf, type Database, mayReadReplica, REPLICA_APPLICATION_NAME } from '../db/database.ts';
import type { ProgressTracker } from './export-progress.ts';
import { currentTenant, FairTurns, type Turn } from './fair-turns.ts';
import { insideJob } from './job-scope.ts';
import { tempFile } from './temp-files.ts';
import { type FunctionRef, type MapperKind, mapperOfKind, type RenderKind, renderOfKind } from './render-kinds.ts';
import type { WorkbookRow, WorkbookSheet } from './workbook-writer.ts';

/**
 * Every workbook the server builds is a workbook job: the export declares its sheet
 * (columns, header) and its row source, and a worker thread reads the rows, writes the
 * .xlsx with ExcelJS's streaming writer into a temporary file (DATA_DIR/tmp, lib/temp-files.ts)
 * and says when it is done.
 * The event loop only waits: an export of 100,000 orders built on it stalled every other
 * user's call for seconds and held the whole workbook (1.8 GB) in memory.
 *
 * The label PDFs use the same workers (`renderFile`): one pool bounds every file built.
 *
 * Where the app has put in the job queue (`useRenderRunner`), a download's file is a render job:
 * a worker instance builds it in this pool and the asking instance gets it back through the file
 * store (modules/export-jobs/export-jobs.renders.ts).
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
   * A row function run in the worker on each database row: `(row, arg) => cells`. Functions
   * cannot cross threads, so it is named by its kind (lib/render-kinds.ts), never by a module.
   */
  mapper?: { kind: MapperKind; arg?: unknown };
  /**
   * The most rows a `query` can give, when the caller counted them (up to SMALL_JOB_ROWS + 1):
   * a query known small gets a small job's turn. Unset: the job waits as a heavy one.
   */
  rowsAtMost?: number;
}

/**
 * A workbook job as plain data: kinds, cells and records, and a query's SQL. What may cross
 * the file store is this without the SQL (modules/export-jobs/export-jobs.renders.ts); the
 * database's settings are never in it: the process that runs the job adds its own.
 */
export interface WorkbookJobData {
  sheet: WorkbookSheet;
  source: { rows: WorkbookRow[] } | { records: Record<string, unknown>[] } | { query: QueryText };
  mapper?: WorkbookJob['mapper'];
  out: string;
  /** Count the query's rows first and report them (a progress bar is watching). */
  count?: boolean;
}
export interface QueryText {
  sql: string;
  parameters: readonly unknown[];
  /**
   * Read on the replica (DATABASE_READ_URL) of the instance that renders: decided where the export
   * was asked for, by the asker's read-your-own-writes (db/read-replica.ts). Unset: the primary.
   */
  replica?: boolean;
}
/**
 * Any other file the server builds (label PDFs): a render function run in the same pool of
 * workers as `(arg, outFile, onProgress) => Promise<void>`, named by its kind
 * (lib/render-kinds.ts) since functions cannot cross threads.
 */
export interface RenderJobData {
  render: { kind: RenderKind | (string & {}); arg: unknown };
  out: string;
}
/**
 * What the worker thread is given (structured-cloned, in this process only): the kinds looked
 * up, and this process's own database settings beside a query.
 */
export type WorkerJob =
  | (Omit<WorkbookJobData, 'source' | 'mapper'> & {
      source:
        | { rows: WorkbookRow[] }
        | { records: Record<string, unknown>[] }
        | { query: QueryText; database: Config['database'] };
      mapper?: FunctionRef & { arg?: unknown };
    })
  | { render: FunctionRef & { arg: unknown }; out: string };

/** A job naming a kind this process does not know, or a query with no database to read: nothing runs. */
export class UnknownRenderError extends Error {}

/** The worker's job of `data`: its kinds looked up, and `database` (this process's own) beside a query. */
function workerJob(data: WorkbookJobData | RenderJobData, database: Config['database'] | undefined): WorkerJob {
  if ('render' in data) {
    const ref = renderOfKind(data.render.kind);
    if (!ref) throw new UnknownRenderError(`unknown render kind ${String(data.render.kind).slice(0, 40)}`);
    return { render: { ...ref, arg: data.render.arg }, out: data.out };
  }
  let mapper: (FunctionRef & { arg?: unknown }) | undefined;
  if (data.mapper) {
    const ref = mapperOfKind(data.mapper.kind);
    if (!ref) throw new UnknownRenderError(`unknown row kind ${String(data.mapper.kind).slice(0, 40)}`);
    mapper = { ...ref, arg: data.mapper.arg };
  }
  const { source } = data;
  if (!('query' in source)) return { ...data, source, mapper };
  if (!database) throw new UnknownRenderError('a query with no database to read it from');
  // Only where the asker's reader may read a replica, and this instance has one.
  const from =
    source.query.replica && database.dialect === 'postgres' && database.readUrl
      ? { ...database, url: database.readUrl, applicationName: REPLICA_APPLICATION_NAME }
      : database;
  return { ...data, source: { query: source.query, database: from }, mapper };
}
export type RenderFn = (arg: never, out: string, onProgress: (done: number) => void) => Promise<void>;
export type WorkbookJobReply =
  | { type: 'done'; size: number }
  | { type: 'failed'; message: string }
  /** Rows written so far (after each page). */
  | { type: 'progress'; rows: number }
  /** Rows the workbook will hold (when asked to count). */
  | { type: 'total'; rows: number };

const WORKER = new URL('./workbook.worker.ts', import.meta.url);
/**
 * Jobs that run at once; more wait their turn. Each worker needs a core and a few tens of
 * MiB whatever its row count, so a burst of exports cannot take the machine.
 */
const CONCURRENT_JOBS = 2;
/**
 * One more worker only small jobs may take, and turns by customer (lib/fair-turns.ts): six
 * 6,000-order PDFs of one customer held another's label-B template for 52–56 s (issue 27).
 * Small: a workbook of at most SMALL_JOB_ROWS rows (0.1–0.3 s) or a render of at most
 * SMALL_JOB_PAGES units (a PDF page is far costlier than a row).
 */
const SMALL_JOB_SLOTS = 1;
export const SMALL_JOB_ROWS = 2000;
const SMALL_JOB_PAGES = 50;
const turns = new FairTurns(CONCURRENT_JOBS, SMALL_JOB_SLOTS);
/** A safety net: a streaming job stays far below it. */
const WORKER_HEAP_MB = 256;

/** Idle workers stay this long: starting one (loading ExcelJS) costs 0.2–1 s. */
const IDLE_MS = 30_000;

/** Workers that finished their job and wait for the next (unref'd: they never keep the process up). */
const idle: { worker: Worker; timer: NodeJS.Timeout }[] = [];

function takeWorker(): Worker {
  const kept = idle.pop();
  if (kept) {
    clearTimeout(kept.timer);
    return kept.worker;
  }
  const worker = new Worker(WORKER, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  // Errors end the job through 'exit'; an idle worker that dies just leaves the pool.
  worker.on('error', () => {});
  worker.once('exit', () => {
    const at = idle.findIndex((k) => k.worker === worker);
    if (at >= 0) idle.splice(at, 1);
  });
  return worker;
}
function keepWorker(worker: Worker) {
  worker.unref();
  const timer = setTimeout(() => {
    const at = idle.findIndex((k) => k.worker === worker);
    if (at >= 0) idle.splice(at, 1);
    void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  idle.push({ worker, timer });
}

/**
 * Renders on the job queue (issue 27; modules/export-jobs/export-jobs.renders.ts): the app puts
 * one in at start, and from then on a download's render is a queue job run by a worker instance,
 * whatever instance asked for it, and fair per customer by the queue's rule. Unset (benchmarks,
 * scripts, unit tests of the writers), files are built here. A module-level slot like the pool
 * itself: its many callers (every export) keep their signatures.
 */
export interface RenderRunner {
  /** Builds `data` on a worker instance as `turn`'s customer's, into `data.out` on this one. */
  render(data: WorkbookJobData | RenderJobData, turn: Turn, progress?: ProgressTracker): Promise<void>;
  /**
   * Whether the small workbooks kept in memory (`buildWorkbookBuffer`) go through the queue too:
   * on a `web` instance, which never renders. On one that runs jobs they are built here, as a
   * template is: quick, and not worth a trip through the queue. Anything built inside a queue
   * job is built there, in the job's turn (lib/job-scope.ts).
   */
  readonly buffersToo: boolean;
}
let runner: RenderRunner | null = null;
/**
 * Puts in the queue that renders from now on; the function returned takes it out again, unless
 * another app of the same process (a restart in a test) has put in its own since.
 */
export function useRenderRunner(r: RenderRunner): () => void {
  runner = r;
  return () => {
    if (runner === r) runner = null;
  };
}

/**
 * Runs one job on a worker of the pool when its turn comes (CONCURRENT_JOBS, plus SMALL_JOB_SLOTS
 * for small ones). `database`: this process's own (`connectionOf`), where a query's rows are read.
 */
export async function renderHere(
  data: WorkbookJobData | RenderJobData,
  turn: Turn,
  progress?: ProgressTracker,
  database?: Config['database'],
): Promise<void> {
  const job = workerJob(data, database);
  const release = await turns.take(turn);
  const worker = takeWorker();
  worker.ref(); // a job in progress keeps the process up
  progress?.writing();
  try {
    await new Promise<void>((resolve, reject) => {
      const onMessage = (m: WorkbookJobReply) => {
        if (m.type === 'progress' || m.type === 'total') {
          if (m.type === 'progress') progress?.rows(m.rows);
          else progress?.total(m.rows);
          return;
        }
        cleanup();
        if (m.type === 'done') resolve();
        else reject(new Error(`workbook job failed: ${m.message}`));
      };
      const onExit = (code: number) => {
        cleanup();
        reject(new Error(`workbook worker exited (${code})`));
      };
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      worker.postMessage(job);
    });
    keepWorker(worker);
  } catch (e) {
    // A worker whose job failed is not reused: it may be out of memory or half-way through.
    void worker.terminate();
    throw e;
  } finally {
    release();
  }
}

const remove = (file: string) => fs.rm(file, { force: true }, () => {});

/** Runs the job in a worker; resolves with the path of the finished workbook (the caller removes it). */
export async function buildWorkbookFile(db: Database, job: WorkbookJob, progress?: ProgressTracker): Promise<string> {
  return workbookFile(db, job, progress, true);
}

async function workbookFile(
  db: Database,
  job: WorkbookJob,
  progress: ProgressTracker | undefined,
  queued: boolean,
): Promise<string> {
  if (progress && !job.query) progress.total(job.rows?.length ?? 0);
  // Read before the first await: the call's customer is in the async context (lib/fair-turns.ts).
  const tenant = currentTenant();
  const rows = job.query ? job.rowsAtMost : (job.rows?.length ?? 0);
  const turn: Turn = { tenant, small: rows !== undefined && rows <= SMALL_JOB_ROWS };
  let source: WorkbookJobData['source'];
  const database = connectionOf(db);
  if (job.query) {
    // An in-memory SQLite database cannot be opened from another thread: its rows are read
    // here and handed over (test and experiment setups only).
    if (!database || (database.dialect === 'sqlite' && database.file === ':memory:'))
      source = { records: (await db.executeQuery<Record<string, unknown>>(job.query)).rows };
    else
      source = { query: { sql: job.query.sql, parameters: job.query.parameters, replica: await mayReadReplica(db) } };
  } else source = { rows: job.rows ?? [] };
  const out = tempFile('xlsx');
  const data: WorkbookJobData = { sheet: job.sheet, source, mapper: job.mapper, out, count: !!progress };
  try {
    await (queued && runner && !insideJob()
      ? runner.render(data, turn, progress)
      : renderHere(data, turn, progress, database));
    progress?.done();
    return out;
  } catch (e) {
    progress?.failed();
    remove(out);
    throw e;
  }
}

/** The finished workbook as a stream for a download; the file goes when the stream closes. */
export async function buildWorkbookStream(
  db: Database,
  job: WorkbookJob,
  progress?: ProgressTracker,
): Promise<Readable> {
  return streamAndRemove(await buildWorkbookFile(db, job, progress));
}

/** The finished workbook in memory, for the small ones kept through the storage interface. */
export async function buildWorkbookBuffer(db: Database, job: WorkbookJob): Promise<Buffer> {
  const file = await workbookFile(db, job, undefined, runner?.buffersToo ?? false);
  try {
    return await fs.promises.readFile(file);
  } finally {
    remove(file);
  }
}

/**
 * Builds a file with a render function in a worker of the pool (`total`: the units it reports,
 * for the progress bar); resolves with the file's path, which the caller removes.
 */
export async function renderFile(
  render: RenderJobData['render'],
  opts: { ext: string; total: number },
  progress?: ProgressTracker,
): Promise<string> {
  progress?.total(opts.total);
  const out = tempFile(opts.ext);
  try {
    const data: RenderJobData = { render, out };
    const turn: Turn = { tenant: currentTenant(), small: opts.total <= SMALL_JOB_PAGES };
    await (runner && !insideJob() ? runner.render(data, turn, progress) : renderHere(data, turn, progress));
    progress?.done();
    return out;
  } catch (e) {
    progress?.failed();
    remove(out);
    throw e;
  }
}

/** A rendered file as a download stream; the file goes when the stream closes. */
export function streamAndRemove(file: string): Readable {
  const stream = fs.createReadStream(file);
  stream.once('close', () => remove(file));
  return stream;
}
