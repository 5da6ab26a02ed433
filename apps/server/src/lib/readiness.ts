import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { Files } from './files.ts';

/**
 * Readiness (`GET /api/ready`): whether this instance can serve calls now, for the load balancer
 * and the orchestrator. Each check has a plain reason key that is answered when it fails; what
 * went wrong inside (an exception's text, a path) is logged, never answered.
 */
export type ReadinessReason =
  'shuttingDown' | 'databaseUnreachable' | 'fileStoreUnwritable' | 'noWorker' | 'checkTimedOut';
export interface ReadinessCheck {
  reason: ReadinessReason;
  /** Resolves when ready, throws otherwise. */
  run(): Promise<void>;
}

/**
 * The instance was told to stop (server.ts): it still serves what the balancer sends during its
 * drain, but tells the balancer to send nothing more.
 */
export function stoppingCheck(stopping: () => boolean): ReadinessCheck {
  return {
    reason: 'shuttingDown',
    run: async () => {
      if (stopping()) throw new Error('shutting down');
    },
  };
}

/** The database answers a trivial query. */
export function databaseCheck(db: Kysely<any>): ReadinessCheck {
  return { reason: 'databaseUnreachable', run: async () => void (await sql`select 1`.execute(db)) };
}

/**
 * The file store takes a write and gives it back (lib/storage*.ts: the folder, the database or
 * the bucket every instance shares), and this instance's own data folder, where files are built
 * before they are stored, takes a write too.
 */
export function fileStoreCheck(store: Pick<Files, 'check'>, dataDir: string): ReadinessCheck {
  return {
    reason: 'fileStoreUnwritable',
    run: async () => {
      await store.check();
      await fs.mkdir(dataDir, { recursive: true });
      const probe = path.join(dataDir, `.ready-${process.pid}-${randomBytes(4).toString('hex')}`);
      await fs.writeFile(probe, 'ok');
      await fs.rm(probe, { force: true });
    },
  };
}

/**
 * A `web` instance runs no job: every import, print and download it takes waits on a worker
 * instance. With none heard from within a lease (lib/jobs.ts `workerSeen`: pg-boss's registry of
 * instances, which each refreshes), it is not ready: its work would only wait (issue 38 row 9).
 */
export function workerCheck(jobs: { workerSeen(): Promise<boolean> }): ReadinessCheck {
  return {
    reason: 'noWorker',
    run: async () => {
      if (!(await jobs.workerSeen())) throw new Error('no worker instance seen within a lease');
    },
  };
}

export type Readiness = { ready: true } | { ready: false; reason: ReadinessReason; error: unknown };

/** Runs every check at once; the first failing one (in the given order) is the answer. */
export async function checkReadiness(checks: readonly ReadinessCheck[], timeoutMs: number): Promise<Readiness> {
  const results = await Promise.all(
    checks.map(async (c) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${c.reason}: no answer in ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([c.run(), timeout]);
        return null;
      } catch (error) {
        return { reason: c.reason, error };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const failed = results.find((r) => r !== null);
  return failed ? { ready: false, ...failed } : { ready: true };
}
