import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { ApiLanguage } from '@console/contract';
import { translate } from '../../lib/messages.ts';
import { parseBudgetMs } from '../../lib/parse-budget.ts';
import type { CatalogueEntry } from '../../domain/pricing/tax-estimate.ts';
import type { ParseJob, StopMessage, WorkerMessage } from './parse.protocol.ts';

/**
 * Parse workers behind a fixed number of slots. Every upload used to start a worker of its
 * own, with no memory or time limit: a few uploads saturated the machine, one crafted sheet
 * held a worker for minutes at gigabytes, and shutdown could not end them. Here at most
 * `workers` parses run at once, each in a fresh worker thread (nothing carries over between
 * customers' files) with a heap limit (`resourceLimits`) and a time limit; the rest wait in
 * line (a batch's place in the job queue and here is what the progress call reports, from the
 * database: `onStart`). `close()`, or a run's `signal`, ends running and waiting parses: their
 * callers get a `parseShutdown` failure to record.
 *
 * One pool per instance (app.ts): the order import and order review share it, so PARSE_WORKERS
 * bounds the machine's parse threads, not each module's. A worker is ended by asking it
 * (a StopMessage, parse.protocol.ts) and waiting for its exit; it is terminated only if it has not left
 * after `stopGraceMs` (a parse stuck in one long synchronous step). A worker that is leaving
 * still holds its slot, so a stopped parse never runs beside the next one.
 */
export interface ParsePoolOptions {
  workers: number;
  timeoutMs: number;
  memoryMb: number;
  /** How long an ended worker has to leave by itself before it is terminated. */
  stopGraceMs?: number;
  /** Told when a worker had to be terminated (it did not stop when asked). */
  onTerminated?: () => void;
}

/**
 * A parse notices a StopMessage at its next row or answer: milliseconds on an idle machine, but a
 * parse thread of a machine loaded 15 times over its cores took seconds (5 s was passed in a test
 * run). 20 s, within the 30 s the queue's own stop gives running jobs.
 */
const STOP_GRACE_MS = 20_000;
/**
 * A worker still loading its modules reads its messages only once loaded (seconds on a loaded
 * machine): its grace starts when it is ready, within this bound.
 */
const LOAD_GRACE_MS = 60_000;

export interface ParseOutcome {
  done: Extract<WorkerMessage, { type: 'done' }> | null;
  fatal: { key: string; params?: Record<string, string | number> } | null;
  /** A clean batch's orders as the worker stored them (parsed-orders.ts). */
  parsed: { data: Buffer; sha256: string } | null;
}

export interface ParseRun {
  onProgress: (fraction: number) => void;
  /** The parse leaves the line and starts in a worker (the batch's queue position is kept in the database). */
  onStart?: () => void;
  /** Aborted when the job running this parse must stop (its queue stops): the parse ends as `parseShutdown`. */
  signal?: AbortSignal;
  /** The worker asks which of the file's order numbers the customer already has. */
  existingOrderNos: (orderNos: string[]) => Promise<string[]>;
  /** The customer's catalogue entries of these JANs and the recipients' yearly totals (fen). */
  lookup: (
    jans: string[],
    idCards: string[],
  ) => Promise<{ entries: [string, CatalogueEntry][]; yearly: [string, number][] }>;
}

/** Failures the pool itself decides (not the file's content): recorded in both languages. */
const POOL_FAILURES = new Set(['parseTimeout', 'parseOutOfMemory', 'parseShutdown']);

/** The batch's failure text: the uploader's language, and for the pool's own failures both languages. */
export function parseFailureText(lang: ApiLanguage, fatal: NonNullable<ParseOutcome['fatal']>): string {
  if (!POOL_FAILURES.has(fatal.key)) return translate(lang, fatal.key, fatal.params);
  const other: ApiLanguage = lang === 'en' ? 'zh-CN' : 'en';
  return `${translate(lang, fatal.key, fatal.params)} / ${translate(other, fatal.key, fatal.params)}`;
}

type Waiting = { start: () => void; cancel: () => void };
const STOP: StopMessage = { type: 'stop' };

export function createParsePool(opts: ParsePoolOptions) {
  const workerUrl = new URL('./parse.worker.ts', import.meta.url);
  // The old generation is what a parse grows; the young one and the stack stay V8's defaults.
  const resourceLimits = { maxOldGenerationSizeMb: opts.memoryMb };
  /**
   * V8 starts an isolate's old generation at a few MiB and collects it at every step it grows: a
   * 100,000-row parse, which keeps its rows to the end, spent 0.5 s of its 2.4 s in those
   * collections. resourceLimits has no initial size; V8's flag has, read as an isolate is made,
   * so it is set from a parse worker's spawn until it is online (another worker starting then
   * gets it too: harmless). A third of the heap limit, at most 256 MiB: 0.25-0.3 s less a preview.
   */
  const initialOldMb = Math.min(256, Math.floor(opts.memoryMb / 3));
  const queue: Waiting[] = [];
  /** Running parses by worker, with the way to end each one. */
  const active = new Map<Worker, { run: ParseRun; end: (fatal: NonNullable<ParseOutcome['fatal']>) => void }>();
  let closed = false;
  /** Workers asked to stop, until they have exited: they keep their slots. */
  const leaving = new Set<Promise<void>>();
  const busy = () => active.size + leaving.size;

  /** Workers whose modules are loaded (their `ready` message came). */
  const ready = new WeakSet<Worker>();

  /** Asks `w` to stop and resolves when it has exited (terminated past the grace period). */
  const retire = (w: Worker) => {
    const gone = new Promise<void>((resolve) => {
      if (w.threadId === -1) return resolve(); // exited already
      const terminate = () => {
        opts.onTerminated?.();
        void w.terminate();
      };
      const graceMs = opts.stopGraceMs ?? STOP_GRACE_MS;
      let grace = setTimeout(terminate, ready.has(w) ? graceMs : LOAD_GRACE_MS);
      const onReady = (m: WorkerMessage) => {
        if (m.type !== 'ready') return;
        clearTimeout(grace);
        grace = setTimeout(terminate, graceMs);
      };
      if (!ready.has(w)) w.on('message', onReady);
      w.once('exit', () => {
        clearTimeout(grace);
        w.off('message', onReady);
        resolve();
      });
      w.postMessage(STOP);
    });
    const p: Promise<void> = gone.finally(() => {
      leaving.delete(p);
      startNext();
    });
    leaving.add(p);
    return p;
  };

  /**
   * One worker is kept started and idle: loading its modules took 0.2-0.3 s of every preview.
   * Idle, it does not keep the process alive. The next one starts when a job ends: loading
   * beside a running parse would slow it.
   */
  let spare: Worker | null = null;
  const spawn = () => {
    v8.setFlagsFromString(`--initial-old-space-size=${initialOldMb}`);
    const w = new Worker(workerUrl, { resourceLimits });
    w.once('online', () => v8.setFlagsFromString('--initial-old-space-size=0'));
    const onReady = (m: WorkerMessage) => {
      if (m.type !== 'ready') return;
      ready.add(w);
      w.off('message', onReady);
    };
    w.on('message', onReady);
    w.unref();
    // An idle worker that dies (out of memory, a bug at load) is simply replaced on demand.
    w.once('exit', () => spare === w && (spare = null));
    w.on('error', () => {});
    return w;
  };
  const takeWorker = () => {
    const w = spare ?? spawn();
    spare = null;
    w.ref();
    return w;
  };
  const warmUp = setTimeout(() => !closed && !spare && (spare = spawn()), 100);
  warmUp.unref();

  function startNext() {
    while (!closed && busy() < opts.workers && queue.length) queue.shift()!.start();
    if (!closed && !spare && busy() < opts.workers) spare = spawn();
  }

  function runOn(job: ParseJob, run: ParseRun): Promise<ParseOutcome> {
    return new Promise<ParseOutcome>((resolve, reject) => {
      const worker = takeWorker();
      let parsed: ParseOutcome['parsed'] = null;
      let settled = false;
      const finish = (outcome: ParseOutcome | Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        active.delete(worker);
        void retire(worker);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
        startNext();
      };
      const fail = (fatal: NonNullable<ParseOutcome['fatal']>) => finish({ done: null, fatal, parsed: null });
      active.set(worker, { run, end: fail });
      run.onStart?.();
      // The time limit follows the file's size (PARSE_TIMEOUT_SECONDS is the most any file gets).
      const budgetMs = parseBudgetMs(job.file.byteLength, opts.timeoutMs);
      const timer = setTimeout(
        () => fail({ key: 'parseTimeout', params: { seconds: Math.round(budgetMs / 100) / 10 } }),
        budgetMs,
      );
      worker.on('message', (m: WorkerMessage) => {
        if (settled) return;
        if (m.type === 'progress') run.onProgress(m.fraction);
        else if (m.type === 'parsed')
          parsed = { data: Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength), sha256: m.sha256 };
        else if (m.type === 'checkOrderNos') {
          run.existingOrderNos(m.orderNos).then(
            (existing) => !settled && worker.postMessage({ existing }),
            (e: Error) => finish(e),
          );
        } else if (m.type === 'lookup') {
          run.lookup(m.jans, m.idCards).then(
            (answer) => !settled && worker.postMessage(answer),
            (e: Error) => finish(e),
          );
        } else if (m.type === 'done') finish({ done: m, fatal: null, parsed });
        else if (m.type === 'fatal') fail({ key: m.key, params: m.params });
      });
      worker.on('error', (e: Error & { code?: string }) =>
        fail(
          e.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? { key: 'parseOutOfMemory' }
            : { key: 'fileCorrupt', params: { detail: e.message.slice(0, 200) } },
        ),
      );
      worker.on('exit', () => fail({ key: 'fileCorrupt' }));
      worker.postMessage(job, [job.file.buffer as ArrayBuffer]);
    });
  }

  return {
    /** Parses `job` when a slot is free (at once if one is). */
    run(job: ParseJob, run: ParseRun): Promise<ParseOutcome> {
      const shutdown: ParseOutcome = { done: null, fatal: { key: 'parseShutdown' }, parsed: null };
      if (closed || run.signal?.aborted) return Promise.resolve(shutdown);
      let waiting: Waiting | undefined;
      const outcome =
        busy() < opts.workers && queue.length === 0
          ? runOn(job, run)
          : new Promise<ParseOutcome>((resolve, reject) => {
              waiting = {
                start: () => runOn(job, run).then(resolve, reject),
                cancel: () => resolve(shutdown),
              };
              queue.push(waiting);
            });
      if (!run.signal) return outcome;
      const stop = () => {
        const i = waiting ? queue.indexOf(waiting) : -1;
        if (i >= 0) queue.splice(i, 1)[0]!.cancel();
        else for (const a of active.values()) if (a.run === run) a.end({ key: 'parseShutdown' });
      };
      run.signal.addEventListener('abort', stop, { once: true });
      return outcome.finally(() => run.signal!.removeEventListener('abort', stop));
    },
    /**
     * Ends every running and waiting parse (each resolves as `parseShutdown`) and the idle worker,
     * and resolves once every worker has exited: the app closes its database only after.
     */
    async close() {
      closed = true;
      clearTimeout(warmUp);
      for (const q of queue.splice(0)) q.cancel();
      for (const a of [...active.values()]) a.end({ key: 'parseShutdown' });
      if (spare) void retire(spare);
      spare = null;
      while (leaving.size) await Promise.all(leaving);
    },
  };
}
export type ParsePool = ReturnType<typeof createParsePool>;
