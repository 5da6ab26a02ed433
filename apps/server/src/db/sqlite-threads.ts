import type { SQLInputValue } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';

/** The SQLite dialect's helper threads (sqlite-dialect.ts): WAL checkpoints and plain reads off the event loop. */

/** A query parameter as node:sqlite binds it, on the writer's connection and on a reader thread alike. */
export const toParam = (v: unknown): SQLInputValue => {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Date) return v.toISOString();
  if (v === undefined) return null;
  return v as SQLInputValue;
};

/**
 * Runs SQLite's WAL checkpoints on a thread of their own. By default the connection whose
 * commit takes the WAL past 1,000 pages copies it into the database file inside that COMMIT:
 * after a 100,000-order import that held the event loop for half a second, and every other
 * user's call with it. The writer's automatic checkpoints are off; shortly after a commit this
 * thread runs a PASSIVE checkpoint on its own connection (it never waits for readers or the
 * writer; what it cannot copy yet is copied next time). Should the thread fail, the writer
 * checkpoints as before.
 */
export class Checkpointer {
  private readonly worker: Worker;
  private pending?: Promise<void>;
  private readonly closing = new AbortController();
  private failed = false;
  constructor(file: string, fallback: () => void) {
    this.worker = new Worker(CHECKPOINT_THREAD, { eval: true, workerData: { file } });
    this.worker.unref();
    this.worker.on('error', () => {
      this.failed = true;
      fallback();
    });
  }
  /**
   * A commit happened: checkpoint within a second (the commits of that second share one). A
   * batch commit writes some twenty short transactions a second, each touching the same index
   * pages; checkpointing every 100 ms copied those pages again and again (2.5 s of CPU on the
   * second core during a 100,000-order import, beside the logins it should leave room for).
   */
  due() {
    if (this.pending || this.failed) return;
    this.pending = this.checkpointAfterDelay();
  }
  /**
   * This process's own SQLite file, which no other instance shares: the delay is awaited here, and
   * a close during it ends it with no checkpoint. The wait does not keep the process alive.
   */
  private async checkpointAfterDelay() {
    const waited = await sleep(CHECKPOINT_DELAY_MS, true, { signal: this.closing.signal, ref: false }).catch(
      () => false,
    );
    this.pending = undefined;
    if (waited) this.worker.postMessage('checkpoint');
  }
  async close() {
    this.closing.abort();
    if (this.failed) return;
    const exited = new Promise((r) => this.worker.once('exit', r));
    this.worker.ref(); // wait for it to close its connection, even as the process winds down
    this.worker.postMessage('close');
    await exited;
  }
}

const CHECKPOINT_DELAY_MS = 1000;

/**
 * Threads with read-only connections of their own, for the reads that can take long (an order
 * list's page and count over a million orders). node:sqlite runs a statement synchronously, so
 * on the event loop a 200 ms filter stalled every other call — logins, scans, the writer's own
 * commits — for 200 ms. A thread costs a message each way (~0.1 ms) and the rows' copy, so only
 * such reads come here (database.ts readOffLoop). Each sees the last commit, as the main reader
 * does (WAL). A read goes to the thread with the fewest waiting.
 */
export class ReaderThreads {
  private readonly workers: { worker: Worker; waiting: number }[] = [];
  private readonly pending = new Map<
    number,
    { resolve: (rows: any[]) => void; reject: (e: Error) => void; slot: object }
  >();
  private next = 1;
  private closed = false;
  constructor(file: string, n: number) {
    for (let i = 0; i < n; i++) {
      const worker = new Worker(READER_THREAD, { eval: true, workerData: { file } });
      worker.unref();
      const slot = { worker, waiting: 0 };
      worker.on(
        'message',
        (m: { id: number; rows?: any[]; error?: { message: string; code?: string; errcode?: number } }) => {
          const p = this.pending.get(m.id);
          if (!p) return;
          this.pending.delete(m.id);
          slot.waiting--;
          if (this.pending.size === 0 && !this.closed) for (const w of this.workers) w.worker.unref();
          if (m.error)
            p.reject(Object.assign(new Error(m.error.message), { code: m.error.code, errcode: m.error.errcode }));
          else p.resolve(m.rows!);
        },
      );
      worker.on('error', (e) => {
        // A thread that dies fails what it was running; the next reads go to the others.
        this.workers.splice(this.workers.indexOf(slot), 1);
        for (const [id, p] of this.pending) {
          if (p.slot !== slot) continue;
          this.pending.delete(id);
          p.reject(e);
        }
      });
      this.workers.push(slot);
    }
  }
  all<R>(sql: string, parameters: readonly unknown[]): Promise<R[]> {
    if (this.closed || !this.workers.length) return Promise.reject(new Error('reader threads are closed'));
    let slot = this.workers[0]!;
    for (const w of this.workers) if (w.waiting < slot.waiting) slot = w;
    const id = this.next++;
    slot.waiting++;
    // Referenced while a read is out, so the process waits for its answer.
    slot.worker.ref();
    return new Promise<R[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, slot });
      slot.worker.postMessage({ id, sql, params: parameters.map(toParam) });
    });
  }
  async close() {
    this.closed = true;
    await Promise.all(
      this.workers.map(({ worker }) => {
        const exited = new Promise((r) => worker.once('exit', r));
        worker.ref();
        worker.postMessage({ close: true });
        return exited;
      }),
    );
  }
}

const READER_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.file);
db.exec('PRAGMA busy_timeout = 10000; PRAGMA query_only = 1');
const statements = new Map();
parentPort.on('message', (m) => {
  if (m.close) {
    db.close();
    parentPort.close();
    return;
  }
  try {
    let stmt = statements.get(m.sql);
    if (!stmt) {
      if (statements.size > 200) statements.clear();
      stmt = db.prepare(m.sql);
      statements.set(m.sql, stmt);
    }
    parentPort.postMessage({ id: m.id, rows: stmt.all(...m.params) });
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: { message: String(e && e.message || e), code: e && e.code, errcode: e && e.errcode } });
  }
});
`;

const CHECKPOINT_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.file);
db.exec('PRAGMA busy_timeout = 0');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
parentPort.on('message', (m) => {
  if (m === 'close') {
    db.close();
    parentPort.close();
  } else {
    try { checkpoint.get(); } catch {}
  }
});
`;
