import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { connectionOf, type Database } from '../../db/database.ts';
import { ErrorCode } from '@console/contract/envelope';
import { AppError } from '../../lib/errors.ts';
import type { ExportProgressStore } from '../../lib/export-progress.ts';
import { queueKeyOf, type Turn } from '../../lib/fair-turns.ts';
import type { GaveUpReason, JobQueue } from '../../lib/jobs.ts';
import { type Files, storeFailureNamed } from '../../lib/files.ts';
import { tempFile } from '../../lib/temp-files.ts';
import { renderHere, type RenderRunner, UnknownRenderError } from '../../lib/workbook-job.ts';
import { createExportRendersRepository } from './export-renders.repository.ts';
import { INPUT_REFUSED, openInput, RenderInputRefused, sealInput } from './render-inputs.ts';
import type { JobPayload } from '../../lib/job-catalogue.ts';

/** Small renders (a template, a one-page export) have a kind of their own, so they never wait behind heavy ones. */
export const RENDER_SMALL = 'render-small';
export const RENDER_HEAVY = 'render-heavy';
/** How often the asking instance looks at the render's row. */
const WAIT_POLL_MS = 100;
/** pg-boss's poll of the small kind: its floor, so a template answers within a second or so. */
const SMALL_POLL_SECONDS = 0.5;
/** The queue's hard limit on a job (jobs.pg.ts): past it nothing will come, so the asker stops waiting. */
const WAIT_LIMIT_MS = 4 * 3600_000;
/** A render row (and its objects) older than this has no asker left: the sweep removes it. */
export const RENDER_ROW_LIMIT_MS = 2 * WAIT_LIMIT_MS;
/** The periodic job that removes them, and its period. */
export const RENDER_SWEEP = 'render-sweep';
const RENDER_SWEEP_MS = 3_600_000;
/** A stored input's file extension: letters and digits only, since it names a temporary file here. */
const safeExt = (ext: string) => (/^[a-z0-9]{1,8}$/.test(ext) ? ext : 'bin');
/** Who rendered, in the row: a process's id (logs, and the tests that check the web instance never renders). */
export const RENDERER_ID = randomUUID();

/** The row's error of a render the queue gave up on: the message key the asker answers. */
const STOPPED: GaveUpReason = 'jobStoppedTooOften';

/** A render's job: its id, tenant and size, the progress to report, and a workbook's query (render-inputs.ts: with the job, never in the store). */
type RenderPayload = JobPayload<'render-small'>;

export interface ExportRendersDeps {
  db: Database;
  jobs: JobQueue;
  /** The files module (lib/files.ts): inputs and outputs are work bytes, written and read by key, never rows. */
  files: Files;
  /** The MAC key of render inputs (render-inputs.ts `renderInputKey`): the same on every instance. */
  inputKey: Buffer;
  progress: ExportProgressStore;
  /** SERVER_ROLE=web: renders nothing itself, not even small workbooks kept in memory. */
  webOnly: boolean;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/**
 * Renders of workbooks and PDFs as queue jobs (issue 27; docs/decisions.md "Renders on the job
 * queue"). The asking instance writes the render's input to the shared store, inserts its row
 * and enqueues its job in one transaction, then polls the row; a worker instance renders in its
 * worker threads (lib/workbook-job.ts `renderHere`), puts the file in the store and records its
 * key; the asker copies the bytes to its temporary file and removes the row and both objects,
 * which were only for this answer. Fairness is the queue's: a customer's heavy renders run one
 * at a time per worker, small ones have a kind of their own.
 */
export function createExportRenders(deps: ExportRendersDeps): RenderRunner {
  const { db, jobs, files, log } = deps;
  const repo = createExportRendersRepository(db);
  // Wall time, not the app's clock (which tests move by hours): these times only age rows out.
  const stamp = () => new Date().toISOString();

  const run = async (p: RenderPayload) => {
    const row = await repo.take(p.id, RENDERER_ID, stamp());
    if (!row) return; // the asker gave up and removed it
    // Set once the input is open: a temporary file of ours (the closure's assignment is not seen by narrowing).
    const made: { out: string | null } = { out: null };
    // From here every end is written to the row: the asker waits on it.
    try {
      // Checked before anything in it is read; the file is written to a temporary file of ours.
      const data = await openInput(deps.inputKey, p.id, await files.read(row.input_key), p.query, (ext) => {
        made.out = tempFile(safeExt(ext));
        return made.out;
      });
      const progress = p.progress ? deps.progress.resume(p.progress.userId, p.progress.id) : undefined;
      // This instance's own database settings, never the asker's.
      await renderHere(data, { tenant: p.tenant, small: p.small }, progress, connectionOf(db));
      await progress?.flushed();
      const { key } = await files.write(await fs.readFile(data.out), path.basename(data.out));
      if (!(await repo.finish(p.id, { state: 'done', fileKey: key }, stamp()))) await files.discard(key);
    } catch (err) {
      log.error({ err, render: p.id }, 'render failed');
      const refused = err instanceof RenderInputRefused || err instanceof UnknownRenderError;
      const text = String((err as Error)?.message ?? err);
      await repo.finish(
        p.id,
        {
          state: 'failed',
          error: (refused && !text.startsWith(INPUT_REFUSED) ? `${INPUT_REFUSED}: ${text}` : text).slice(0, 500),
        },
        stamp(),
      );
    } finally {
      if (made.out) await fs.rm(made.out, { force: true });
    }
  };
  // The embedded runner is one process by design, its store a folder of its own: a render is
  // run by the process that asked (two test apps on one SQLite file would each find the other's
  // input missing), and one a killed process left is failed at the next start (processBound).
  // On PostgreSQL any worker instance runs it.
  const kinds = { small: RENDER_SMALL, heavy: RENDER_HEAVY };
  // A render that kept stopping its process, given up by the queue (PostgreSQL: the embedded
  // runner fails a dead process's renders without it, their asker gone with it): its row failed
  // with the reason, if still running, so the asker stops waiting and answers it in its words.
  const gaveUp = async (p: RenderPayload, reason: GaveUpReason) =>
    void (await repo.finish(p.id, { state: 'failed', error: reason }, stamp()));
  jobs.define<RenderPayload>({ name: kinds.small, run, gaveUp, pollSeconds: SMALL_POLL_SECONDS, processBound: true });
  jobs.define<RenderPayload>({ name: kinds.heavy, run, gaveUp, processBound: true });

  const waitFor = async (id: string) => {
    const until = Date.now() + WAIT_LIMIT_MS;
    for (;;) {
      const row = await repo.read(id);
      if (!row) throw new Error(`render ${id} vanished`);
      if (row.state === 'done' || row.state === 'failed') return row;
      if (Date.now() > until) throw new Error(`render ${id} not done in time`);
      await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
    }
  };

  const removeKeys = async (keys: { input_key: string; file_key: string | null }) => {
    await files.discard(keys.input_key);
    if (keys.file_key) await files.discard(keys.file_key);
  };

  // What an asker that stopped mid-wait left behind (a web instance killed while it waited): rows
  // older than twice the wait's limit, which no asker still reads, and their objects. A periodic
  // job, run once per period by whichever instance runs jobs, at start too: once only a non-web
  // instance's start swept, and a rolling deploy of web instances piled them up (issue 38 row 10).
  jobs.every(
    {
      name: RENDER_SWEEP,
      run: async () => {
        const rows = await repo.removeOlderThan(new Date(Date.now() - RENDER_ROW_LIMIT_MS).toISOString());
        await Promise.all(rows.map(removeKeys));
      },
    },
    { everyMs: RENDER_SWEEP_MS, atStart: true },
  );

  return {
    buffersToo: deps.webOnly,
    async render(data, turn: Turn, progress) {
      const id = randomUUID();
      const sealed = await sealInput(deps.inputKey, id, data);
      const input = await files.write(sealed.bytes, 'render-input.bin');
      try {
        const payload: RenderPayload = {
          id,
          tenant: turn.tenant,
          small: turn.small,
          progress: progress?.ref,
          query: sealed.query,
        };
        // The row, then its job, not one transaction: the job only needs the row to be there, a
        // failed enqueue is cleaned up below, and the in-process runner starts a job enqueued
        // outside a transaction at once instead of at its next poll (up to 250 ms for a template).
        await repo.insert(id, input.key, stamp());
        // The progress row started (and its total written) before the worker can resume it.
        await progress?.flushed();
        await jobs.enqueue(turn.small ? kinds.small : kinds.heavy, payload, {
          size: turn.small ? 'small' : 'heavy',
          customerId: queueKeyOf(turn.tenant),
        });
        const row = await waitFor(id);
        if (row.state === 'failed') throw renderFailure(row.error);
        // Streamed to the asker's file: a big PD or workbook is never held whole here.
        await pipeline((await files.open(row.file_key!)).body, createWriteStream(data.out));
        // The count the worker made goes into this tracker too, whose "done" is written last.
        // Rows first: every write carries this tracker's whole state, and a total written while
        // it still held its own rows (0) set the bar back for a poll between the two writes.
        if (progress?.ref) {
          const seen = await deps.progress.read(progress.ref.userId, progress.ref.id);
          progress.rows(seen.rows);
          if (seen.total !== null) progress.total(seen.total);
        }
      } finally {
        const row = await repo.remove(id).catch(() => null);
        await removeKeys(row ?? { input_key: input.key, file_key: null }).catch((err: unknown) =>
          log.warn({ err, render: id }, 'render objects not removed'),
        );
      }
    },
  };
}

/**
 * A failed render as the asker's error: the store's failures and a refused input by their keys
 * (the reason stays in the log), anything else a 500 whose cause is logged.
 */
function renderFailure(text: string | null): Error {
  const named = storeFailureNamed(text);
  if (named) return named;
  // Given up by the queue (gaveUp above): its key, in the asker's language.
  if (text === STOPPED) return new AppError(ErrorCode.INTERNAL, STOPPED);
  if (text?.startsWith(INPUT_REFUSED))
    return new AppError(ErrorCode.INTERNAL, INPUT_REFUSED, null, undefined, undefined, new Error(text));
  return new Error(`render failed: ${text ?? ''}`);
}
