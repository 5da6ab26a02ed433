import { ErrorCode } from '@console/contract';
import type { Transaction } from 'kysely';
import { type Database, markJobWrite, settleJobWrite } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import type { DB } from '../../db/schema.ts';
import type { ItemsTable } from '../../db/schema-items.ts';
import { classifyDatabaseError } from '../../http/error-handler.ts';
import { AppError } from '../../lib/errors.ts';
import type { GaveUpReason, JobQueue } from '../../lib/jobs.ts';
import { translate } from '../../lib/messages.ts';
import { nextTurn } from '../../db/next-turn.ts';
import type { Files } from '../../lib/files.ts';
import { isStorageFull, StoredFileMissing } from '../../lib/storage.ts';
import type { createItemImportRepository } from './items.import.repository.ts';
import type { NewItemValues } from './items.service.ts';
import type { JobPayload } from '../../lib/job-catalogue.ts';

/** Items written per statement of a commit (22 columns: far under both engines' parameter limits). */
const COMMIT_CHUNK = 500;
/** The queue's kind of a commit (lib/jobs.ts). */
const COMMIT_JOB = 'item-import-commit';
type CommitPayload = JobPayload<'item-import-commit'>;

/**
 * The commit of a confirmed item import, a job on the queue (issue 27): one instance runs it, and
 * another takes it over only if that one dies. Its progress: on PostgreSQL written to the import's
 * row on another connection between chunks, so whichever instance answers the poll reads it; on
 * SQLite (one instance) its one writer is the commit's until it ends, so the figure between chunks
 * is kept in `progress`, read by this same process (docs/decisions.md, "Item import commits on the
 * job queue").
 */
export function createItemImportCommits(deps: {
  db: Database;
  clock: () => Date;
  files: Files;
  jobs: JobQueue;
  repo: ReturnType<typeof createItemImportRepository>;
  progress: Map<number, number>;
  logError?: (err: unknown, importId: number) => void;
}) {
  const { db, clock, files, repo, progress: local } = deps;
  const now = () => clock().toISOString();
  const pg = dialectOf(db) === 'postgres';
  const removeFile = (key: string | null) => (key ? files.discard(key).catch(() => {}) : Promise.resolve());

  /**
   * A commit, run by the queue on one instance. Taken over from a dead instance, it finds the
   * import still committing (the dead one's transaction never committed: nothing was written) and
   * runs it whole; an import no longer committing was finished by an earlier run.
   */
  async function commitJob({ importId: id, userId, lang }: CommitPayload) {
    const m = await repo.findAny(id);
    if (!m || m.status !== 'committing') return;
    const progress = async (n: number) => {
      if (pg) await repo.update(db, id, { progress: n, updated_at: now() }, 'committing');
      else local.set(id, n);
    };
    try {
      const rows = JSON.parse((await files.read(m.valid_key!)).toString('utf8')) as NewItemValues[];
      const at = now();
      // One transaction: every valid row becomes an item, or none does. Inserted a chunk per
      // statement (a 20,000-row import is 40 statements, not 20,000); between chunks the event
      // loop gets a turn and the page's progress moves.
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += COMMIT_CHUNK) {
          const chunk = rows.slice(i, i + COMMIT_CHUNK);
          // A JAN taken since the preview (an item created meanwhile) refuses the whole import;
          // the unique index stops any race past this check.
          const taken = await repo.existingJans(
            trx,
            m.customer_id,
            chunk.map((r) => r.jan),
          );
          if (taken.length)
            throw new AppError(ErrorCode.CONFLICT, 'itemImportJansTaken', null, {
              value: taken.slice(0, 5).join(', '),
            });
          await repo.insertItems(
            trx,
            chunk.map((r): Omit<ItemsTable, 'id' | 'version'> => ({
              ...r,
              customer_id: m.customer_id,
              status: 'pending',
              reason: null,
              image_file_id: null,
              created_by: userId,
              created_at: at,
              updated_at: at,
            })),
            { user_id: userId, at },
          );
          await progress(Math.floor(((i + chunk.length) / rows.length) * 99));
          await nextTurn();
        }
        const done = await repo.update(
          trx,
          id,
          { status: 'done', progress: 100, created_items: rows.length, valid_key: null, updated_at: now() },
          'committing',
        );
        if (!done) throw new AppError(ErrorCode.CONFLICT, 'itemImportInterrupted');
        // The asker's next item list waits for a replica to replay these items (DATABASE_READ_URL).
        await markJobWrite(db, trx, userId);
      });
      await settleJobWrite(db, userId);
      await removeFile(m.valid_key);
    } catch (e) {
      const dup = classifyDatabaseError(e);
      // The stored rows missing (removed, or stored by another instance with a DATA_DIR of its
      // own) is the user's "upload again"; the file system's text, with its path, is never shown.
      const err =
        e instanceof AppError
          ? { key: e.key, params: e.params }
          : dup?.kind === 'unique'
            ? { key: 'itemImportJansTaken', params: { value: '' } }
            : e instanceof StoredFileMissing
              ? { key: 'itemImportFileGone', params: undefined }
              : { key: isStorageFull(e) ? 'storageFull' : 'internal', params: undefined };
      if (err.key === 'internal') deps.logError?.(e, id);
      await repo
        .update(
          db,
          id,
          {
            status: 'failed',
            progress: 100,
            error_message: translate(lang, err.key, err.params),
            valid_key: null,
            updated_at: now(),
          },
          'committing',
        )
        .catch(() => {});
      await removeFile(m.valid_key);
    } finally {
      local.delete(id);
    }
  }

  /**
   * A commit that kept stopping its process, given up by the queue: the import says so in both
   * languages (its message is stored as text), if still committing; one already ended is left alone.
   */
  async function failStopped({ importId: id }: CommitPayload, reason: GaveUpReason) {
    const m = await repo.findAny(id);
    const failed = await repo.update(
      db,
      id,
      {
        status: 'failed',
        progress: 100,
        error_message: `${translate('zh-CN', reason)} / ${translate('en', reason)}`,
        valid_key: null,
        updated_at: now(),
      },
      'committing',
    );
    local.delete(id);
    if (failed) await removeFile(m?.valid_key ?? null);
  }

  deps.jobs.define<CommitPayload>({
    name: COMMIT_JOB,
    exclusive: true,
    run: (p) => commitJob(p),
    gaveUp: (p, reason) => failStopped(p, reason),
  });
  const enqueue = (m: { id: number; customer_id: number }, p: CommitPayload, trx?: Transaction<DB>) =>
    deps.jobs.enqueue(COMMIT_JOB, p, { trx, customerId: m.customer_id, size: 'heavy', singletonKey: String(m.id) });

  return { enqueue };
}
