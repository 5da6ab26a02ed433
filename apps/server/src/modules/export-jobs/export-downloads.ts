import { buffer } from 'node:stream/consumers';
import type { Database } from '../../db/database.ts';
import { ErrorCode } from '@console/contract/envelope';
import { Download } from '../../http/call-context.ts';
import { AppError } from '../../lib/errors.ts';
import type { ExportProgress, ExportProgressStore, ProgressTracker } from '../../lib/export-progress.ts';
import type { Files } from '../../lib/files.ts';
import type { JobQueue } from '../../lib/jobs.ts';
import { createExportDownloadsRepository } from './export-downloads.repository.ts';
import { RENDER_ROW_LIMIT_MS } from './export-jobs.renders.ts';

/** The periodic job that removes downloads nobody fetched, and its period. */
export const DOWNLOAD_SWEEP = 'download-sweep';
const DOWNLOAD_SWEEP_MS = 3_600_000;
/**
 * A row older than this is left (the console gave up, or the instance building it stopped): as
 * long as a render may take on the queue and then some, as the renders' own rows (export-jobs.renders.ts).
 */
export const DOWNLOAD_ROW_LIMIT_MS = RENDER_ROW_LIMIT_MS;
/**
 * A running download whose builder has not beaten for this many of its beats has lost it (the
 * instance was killed or redeployed mid-build): it is answered as failed. Four beats, so a beat
 * or two lost to a slow database or a busy event loop never fails a live build.
 */
export const ORPHAN_AFTER_BEATS = 4;
/** What a download whose builder went away answers (stored as a failure's parts). */
const INTERRUPTED: StoredFailure = { code: ErrorCode.SERVICE_UNAVAILABLE, key: 'downloadInterrupted' };

/** A failure as stored: the answer's parts, translated when it is fetched, in the fetcher's language. */
interface StoredFailure {
  code: ErrorCode;
  key: string;
  params?: Record<string, string | number>;
  fields?: Record<string, string[]>;
  data?: unknown;
}

export interface ExportDownloads {
  /**
   * Starts building a download of `userId`'s named `id` and resolves once it is recorded (the
   * 202 follows at once); `build` runs on after, on this instance. `tracker` is the download's
   * progress: its "done" is written only once the file is in the store, so a console that saw
   * "done" finds the file, whichever instance it asks. `build`'s failure must be an AppError
   * already (the caller's error handler's words): it is what `export/file` answers.
   */
  start(userId: number, id: string, tracker: ProgressTracker, build: () => Promise<Download>): Promise<void>;
  /** `export/file`: the finished file, the caller's own only; removed once sent. */
  file(userId: number, id: string): Promise<Download>;
  /** `export/progress`: the download's progress, "failed" once its builder is gone. */
  progress(userId: number, id: string): Promise<ExportProgress>;
  /**
   * This instance builds no more (a graceful stop: the app closes). Its beats stop, and the builds
   * still running here are failed at once (`downloadInterrupted`), so their users learn it now and
   * not after the beat's bound; a build that ends later finds its row ended and is discarded.
   */
  stop(): Promise<void>;
}

/**
 * Downloads that never wait on HTTP (issue 38 item 6; docs/decisions/2026-12-07-async-downloads.md).
 * The file goes through the shared file store, as a render's does (export-jobs.renders.ts), so the
 * console fetches it from whichever instance answers.
 */
export function createExportDownloads(deps: {
  db: Database;
  files: Files;
  jobs: JobQueue;
  progress: ExportProgressStore;
  /** How often a builder beats (DOWNLOAD_HEARTBEAT_SECONDS); silent for ORPHAN_AFTER_BEATS beats, it is gone. */
  heartbeatMs: number;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}): ExportDownloads {
  const { files, log, heartbeatMs } = deps;
  const repo = createExportDownloadsRepository(deps.db);
  // Wall time, not the app's clock (which tests move by hours): these times only age rows out.
  const stamp = () => new Date().toISOString();
  const discard = (key: string | null) =>
    key ? files.discard(key).catch((err: unknown) => log.warn({ err }, 'download file not removed')) : undefined;
  /** Beats older than this: the builder is gone. */
  const staleBefore = () => new Date(Date.now() - ORPHAN_AFTER_BEATS * heartbeatMs).toISOString();
  /** The download's progress says failed too, so a console polling it stops and fetches the failure. */
  const progressFailed = async (userId: number, id: string) => {
    const t = deps.progress.resume(userId, id);
    t.failed();
    await t.flushed();
  };
  /** Fails the caller's download if its builder is gone; whether it did. */
  const failIfOrphaned = async (userId: number, id: string) => {
    const failed = await repo.failOrphan(userId, id, staleBefore(), JSON.stringify(INTERRUPTED), stamp());
    if (failed) {
      log.warn({ download: id, userId }, 'download failed: its builder stopped beating');
      await progressFailed(userId, id);
    }
    return failed;
  };
  /** The builds running here and their beats: each leaves when it ends; a stop fails those left. */
  const building = new Set<{ userId: number; id: string; startedAt: string; beat: NodeJS.Timeout }>();
  let stopped = false;
  /** Fails this instance's own build at once (it will not finish here); whether the row was still its. */
  const interrupt = async (userId: number, id: string, startedAt: string) => {
    const failed = await repo.finish(
      userId,
      id,
      startedAt,
      { state: 'failed', error: JSON.stringify(INTERRUPTED) },
      stamp(),
    );
    if (failed) await progressFailed(userId, id);
    return failed;
  };

  deps.jobs.every(
    {
      name: DOWNLOAD_SWEEP,
      run: async () => {
        // Builds whose instance went away end as failed, for a console that stopped looking too.
        for (const row of await repo.failOrphans(staleBefore(), JSON.stringify(INTERRUPTED), stamp()))
          await progressFailed(row.user_id, row.id);
        const rows = await repo.removeOlderThan(new Date(Date.now() - DOWNLOAD_ROW_LIMIT_MS).toISOString());
        for (const row of rows) await discard(row.file_key);
      },
    },
    { everyMs: DOWNLOAD_SWEEP_MS, atStart: true },
  );

  const storeResult = async (userId: number, id: string, startedAt: string, tracker: ProgressTracker, d: Download) => {
    const bytes = Buffer.isBuffer(d.body) ? d.body : await buffer(d.body);
    const { key } = await files.write(bytes, 'download.bin');
    const kept = await repo.finish(
      userId,
      id,
      startedAt,
      { state: 'done', fileKey: key, filename: d.filename, contentType: d.contentType },
      stamp(),
    );
    // Asked again meanwhile (the same id): the newer build's row, not this one's.
    if (!kept) return void (await discard(key));
    tracker.done();
  };
  const storeFailure = async (userId: number, id: string, startedAt: string, tracker: ProgressTracker, e: unknown) => {
    const err = e instanceof AppError ? e : new AppError(ErrorCode.INTERNAL, 'internal', null);
    const failure: StoredFailure = { code: err.code, key: err.key, params: err.params, fields: err.fields };
    if (err.data !== null && err.data !== undefined) failure.data = err.data;
    await repo.finish(userId, id, startedAt, { state: 'failed', error: JSON.stringify(failure) }, stamp());
    tracker.failed();
  };

  return {
    async start(userId, id, tracker, build) {
      const startedAt = stamp();
      await repo.start(userId, id, startedAt);
      // Asked while this instance stops (a call the stop let finish): it will not be built here.
      if (stopped) return void (await interrupt(userId, id, startedAt));
      const build$ = {
        userId,
        id,
        startedAt,
        beat: setInterval(
          () =>
            void repo
              .beat(userId, id, startedAt, stamp())
              .catch((err: unknown) => log.warn({ err, download: id }, 'download beat not written')),
          heartbeatMs,
        ).unref(),
      };
      building.add(build$);
      void (async () => {
        try {
          await storeResult(userId, id, startedAt, tracker, await build());
        } catch (e) {
          await storeFailure(userId, id, startedAt, tracker, e).catch((err: unknown) =>
            log.error({ err, download: id }, 'download failure not recorded'),
          );
        } finally {
          clearInterval(build$.beat);
          building.delete(build$);
          await tracker.flushed();
        }
      })();
    },

    async stop() {
      stopped = true;
      const left = [...building];
      building.clear();
      for (const b of left) clearInterval(b.beat);
      // Not waited for: a build may wait hours on its render, past any stop's grace (the drain,
      // SHUTDOWN_DRAIN_SECONDS, is when a build may still end well). If this write fails (the
      // database is gone too), the beat's bound fails the row, as after a kill.
      for (const b of left) {
        await interrupt(b.userId, b.id, b.startedAt).then(
          (failed) =>
            failed && log.warn({ download: b.id, userId: b.userId }, 'download failed: this instance stopped'),
          (err: unknown) => log.warn({ err, download: b.id }, 'stopped download not failed; its beat will tell'),
        );
      }
    },

    async progress(userId, id) {
      const progress = await deps.progress.read(userId, id);
      if (progress.phase === 'done' || progress.phase === 'failed') return progress;
      const row = await repo.read(userId, id);
      if (row?.state === 'failed') return { ...progress, phase: 'failed' };
      if (row?.state === 'running' && (await failIfOrphaned(userId, id))) return { ...progress, phase: 'failed' };
      return progress;
    },

    async file(userId, id) {
      let row = await repo.read(userId, id);
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      // Its builder gone: the failure, at once, not "not ready" for ever.
      if (row.state === 'running' && (await failIfOrphaned(userId, id))) row = await repo.read(userId, id);
      if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      if (row.state === 'running') throw AppError.conflict('downloadNotReady');
      if (row.state === 'failed') {
        if (!(await repo.take(userId, id))) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
        const f = JSON.parse(row.error ?? '{}') as StoredFailure;
        throw new AppError(f.code ?? ErrorCode.INTERNAL, f.key ?? 'internal', f.data ?? null, f.params, f.fields);
      }
      // Opened before the row goes, so a store that fails leaves the download there to fetch again.
      const opened = await files.open(row.file_key!);
      // Two fetches at once: one gets it.
      if (!(await repo.take(userId, id))) {
        opened.body.destroy();
        throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      }
      // Removed once sent (or the sending stopped): a download's file is for this one answer.
      opened.body.once('close', () => void discard(row.file_key));
      return new Download(row.filename ?? 'download', row.content_type ?? 'application/octet-stream', opened.body);
    },
  };
}
