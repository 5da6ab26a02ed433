import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ApiLanguage, ErrorCode } from '@console/contract';
import type { Transaction } from 'kysely';
import { type Database, markJobWrite, settleJobWrite } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import { isTransientDatabaseError } from '../../db/transient-errors.ts';
import type { DB } from '../../db/schema.ts';
import { unpackOrder } from '../../domain/order-input.ts';
import { insertOrders, reserveWaybillGroups, setBatchHidden, type WaybillPlan } from '../../domain/order-writer.ts';
import { recordReservation, returnWaybills, settleReservation } from '../../domain/waybills.ts';
import { classifyDatabaseError, databaseErrorText } from '../../http/error-handler.ts';
import { allowedChannelsOf } from '../../domain/customer-channels.ts';
import { AppError } from '../../lib/errors.ts';
import { type JobContext, retryDelayMs, TRANSIENT_DELAY_SECONDS, TRANSIENT_RETRIES } from '../../lib/jobs.ts';
import { translate } from '../../lib/messages.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import { nextTurn } from '../../db/next-turn.ts';
import { isStorageFull } from '../../lib/storage.ts';
import { abnormalOf, enabledAbnormalRules, recentOrdersByIdCard } from '../../domain/order-checks.ts';
import { sameRecipientSince } from '../../domain/recipient-eligibility.ts';
import type { createBatchesRepository } from './batches.repository.ts';
import type { BatchesDeps } from './batches.service.ts';
import type { Preview } from './batch-parse.ts';
import type { decodeParsedOrders } from './parsed-orders.ts';
import type { JobPayload } from '../../lib/job-catalogue.ts';

/**
 * Orders written per short transaction of a commit (about 25 ms on SQLite): another user's
 * write waits at most one of them, not the whole 100,000-order commit.
 */
const COMMIT_CHUNK = 500;

/**
 * The commit job's payload. `recovered`: enqueued at start for a batch left committing with no
 * job (by a release that committed in the instance that took the call): it fails the batch.
 */
export type CommitPayload = JobPayload<'batch-commit'>;

/** The job kind of a confirmed batch's commit. */
export const COMMIT_JOB = 'batch-commit';

type Repo = ReturnType<typeof createBatchesRepository>;
type BatchRow = NonNullable<Awaited<ReturnType<Repo['findAny']>>>;
type BatchRecord = NonNullable<Awaited<ReturnType<Repo['find']>>>;

/** The reason of a batch whose job was cut off, in both languages (the reader's is not known then). */
export const interruptedMessage = () =>
  `${translate('zh-CN', 'batchInterrupted')} / ${translate('en', 'batchInterrupted')}`;

/**
 * Confirming a batch, one use case: the confirm call claims the preview (`preview` → `committing`)
 * with its `batch-commit` job, and the job commits it: the orders are staged in short
 * transactions, hidden while the batch is `committing`, and one short transaction makes them all
 * visible; a failure removes them (all or nothing).
 */
export function createBatchConfirms<Shown>({
  db,
  deps,
  repo,
  live,
  now,
  parsedOrders,
  removeFile,
  enqueue,
  loadScoped,
  checkStale,
  present,
}: {
  db: Database;
  deps: Pick<BatchesDeps, 'afterStagedChunk' | 'logError' | 'assertNoticesClear' | 'previewTtlMinutes' | 'jobs'>;
  repo: Repo;
  /** Progress of this process's running jobs, shown by the progress call. */
  live: Map<number, { progress: number }>;
  now: () => string;
  parsedOrders: (batch: BatchRow, lang: ApiLanguage) => Promise<ReturnType<typeof decodeParsedOrders>>;
  removeFile: (key: string | null) => Promise<void>;
  /** Enqueues the batch's job, heavy and by customer, in the caller's transaction. */
  enqueue: (kind: string, p: CommitPayload, customerId: number, trx?: Transaction<DB>) => Promise<unknown>;
  /** The batch in the caller's scope, or 404. */
  loadScoped: (scope: Scope, id: number) => Promise<BatchRecord>;
  /** Expires a preview past its end before it is used; true when it did. */
  checkStale: (b: BatchRecord) => Promise<boolean>;
  /** The batch as the calls show it. */
  present: (b: BatchRecord) => Shown;
}) {
  async function confirm(
    actor: Actor,
    scope: Scope,
    id: number,
    confirmations: string[],
    lang: ApiLanguage,
    skipInvalid = false,
  ) {
    let b = await loadScoped(scope, id);
    if (await checkStale(b)) b = await loadScoped(scope, id);
    if (b.status === 'failed' && b.preview_until && !b.parsed_key) {
      throw AppError.conflict('batchPreviewExpired', { minutes: deps.previewTtlMinutes });
    }
    if (b.status !== 'preview') {
      throw AppError.conflict('batchNotInPreview', { status: b.status });
    }
    // A batch with errors is made whole after fixing, or without the orders with errors when the
    // user chooses so; those rows stay in its error workbook.
    if (b.invalid_rows > 0 && !skipInvalid) throw AppError.field('id', 'batchHasErrors');
    if (b.order_count === 0) throw AppError.field('id', 'batchNoValidOrders');
    const preview = JSON.parse(b.preview ?? '{}') as Preview;
    const missing = (preview.confirmations ?? []).filter((c) => !confirmations.includes(c.kind));
    if (missing.length) {
      throw AppError.validation({ confirmations: missing.map((c) => `confirmKind_${c.kind}`) });
    }
    await deps.assertNoticesClear(actor);
    // A channel taken from the customer since the preview writes none of its orders (issue 17):
    // the preview stays, to be confirmed once the channel is given back or the sheet is changed.
    // (A preview stored before its orders were is parsed again by the commit, with today's list.)
    const allowed = await allowedChannelsOf(db, b.customer_id);
    if (allowed && b.parsed_key) {
      const channels = preview.channels ?? (await parsedOrders(b, lang)).waybills.map((g) => g.channel as string);
      const refused = [...new Set(channels)].filter((c) => !allowed.has(c));
      if (refused.length) throw AppError.field('id', 'channelNotAllowed', { value: refused.join(', ') });
    }
    // Claim the batch atomically, with its commit job: two confirms of one batch commit it once.
    await db.transaction().execute(async (trx) => {
      const claimed = await repo.updateFrom(
        id,
        'preview',
        { status: 'committing', progress: 0, updated_at: now(), heartbeat_at: now() },
        trx,
      );
      if (!claimed) throw AppError.conflict('batchBusy');
      await enqueue(COMMIT_JOB, { batchId: id, userId: actor.userId, lang }, b.customer_id, trx);
    });
    deps.jobs.wake(COMMIT_JOB);
    return present((await repo.find(scope, id))!);
  }

  /**
   * One run of the commit. `again`: a transient database error on PostgreSQL may end it with
   * 'again' instead of failing the batch — the one transaction was rolled back with it, so nothing
   * is staged, and the waybill ranges it reserved are given back for the next run (issue 38 rows 1, 2).
   */
  async function commitJob(batchId: number, userId: number, lang: ApiLanguage, again = false): Promise<'again' | void> {
    live.set(batchId, { progress: 0 });
    const batch = (await repo.findAny(batchId))!;
    const pg = dialectOf(db) === 'postgres';
    let chunk: ReturnType<typeof unpackOrder>[] = [];
    let waybills: WaybillPlan | undefined;
    try {
      const parsed = await parsedOrders(batch, lang);
      const total = parsed.total;
      const createdAt = now();
      let written = 0;
      const progress = () => Math.floor((written / total) * 99);
      // The abnormal rules, as single create runs them, computed per row in this pass: the
      // switches and currencies once, the recent orders of a chunk's ID numbers in one query,
      // and the batch's own earlier rows counted here (they are hidden while it commits).
      const [abnormalOn, currencyDecimals] = await Promise.all([enabledAbnormalRules(db), repo.currencyDecimals()]);
      const commitClock = new Date(createdAt);
      const recentSince = sameRecipientSince(commitClock);
      const inBatch = new Map<string, number>();
      // Each ID number's orders before this batch, read once per commit: the batch's own rows are
      // hidden from the count but not from the index range it scans, so asking again with every
      // chunk re-read all of them (1.7 s of a 100,000-row commit naming one recipient).
      const before = new Map<string, number>();
      const markAbnormal = async (orders: typeof chunk) => {
        if (abnormalOn.has('sameRecipientTooOften')) {
          const unseen = [...new Set(orders.map((o) => o.recipient.idCard.toUpperCase()))].filter(
            (id) => !before.has(id),
          );
          const recent = unseen.length
            ? await recentOrdersByIdCard(db, unseen, recentSince)
            : new Map<string, number>();
          for (const id of unseen) before.set(id, recent.get(id) ?? 0);
        }
        for (const o of orders) {
          const id = o.recipient.idCard.toUpperCase();
          const prior = (before.get(id) ?? 0) + (inBatch.get(id) ?? 0);
          inBatch.set(id, (inBatch.get(id) ?? 0) + 1);
          const a = abnormalOf(o, currencyDecimals, prior, abnormalOn, commitClock);
          o.abnormal = a.abnormal_at ? a : null;
        }
      };
      async function* chunks() {
        for (const pack of parsed.packs()) {
          for (let i = 0; i < pack.length; i += COMMIT_CHUNK) {
            chunk = pack.slice(i, i + COMMIT_CHUNK).map(unpackOrder);
            yield chunk;
          }
        }
      }
      const writeChunk = async (trx: Transaction<DB>, orders: typeof chunk) => {
        // Checked with each chunk: a number taken since the preview (a single create, another
        // import, staged or not) fails the batch; the unique index stops any race past this.
        const taken = await repo.existingOrderNos(
          trx,
          batch.customer_id,
          orders.map((o) => o.orderNo),
        );
        if (taken.length) {
          throw new AppError(ErrorCode.CONFLICT, 'batchOrderNosTaken', null, { value: taken.slice(0, 5).join(', ') });
        }
        await insertOrders(trx, orders, { batchId, createdBy: userId, now: createdAt, waybills });
        written += orders.length;
        live.set(batchId, { progress: progress() });
      };
      const done = {
        status: 'done',
        progress: 100,
        order_count: total,
        parsed_key: null,
        preview_until: null,
        updated_at: now(),
        heartbeat_at: now(),
      };
      // The batch done and its reserved ranges settled, in the caller's transaction. Its stored
      // preview is removed once that has committed (below), never inside it: the file store may be
      // the database (FILE_STORE=database), whose removal through the root connection waited on
      // SQLite's one writer, held by this very transaction (issue 36 item 4: the commit stayed at
      // 99 % and every later write hung), and a removal before COMMIT lost the preview of a commit
      // that rolled back (issue 38 row 1). Should the process die in between, the object is named
      // by no record and the store's orphan sweep takes it (ORPHAN_GRACE_HOURS).
      const publish = async (q: Database | Transaction<DB>) => {
        if (!(await repo.updateFrom(batchId, 'committing', { ...done, updated_at: now() }, q))) {
          throw new AppError(ErrorCode.CONFLICT, 'batchInterrupted');
        }
        await settleReservation(q, batchId);
        // The asker's next order list waits for a replica to replay these orders (DATABASE_READ_URL).
        await markJobWrite(db, q, userId);
      };
      // Every waybill number of the batch is reserved first, in one short transaction: the segment
      // is not held for the commit (see reserveWaybills). The ranges are recorded with the batch in
      // that transaction, so a commit that never lands gives them back, even when its process
      // died (failCommit, at the next start or by the sweep).
      waybills = await db.transaction().execute(async (trx) => {
        const plan = await reserveWaybillGroups(trx, parsed.waybills, createdAt);
        await recordReservation(trx, batchId, plan.ranges);
        return plan;
      });
      // Each step below gets a turn of its own, as every chunk does: run together, the reserving,
      // the first chunk's recent orders and its write held other users' calls for 120 ms.
      await nextTurn();
      if (pg) {
        // PostgreSQL: one transaction. Its snapshot hides the rows from everyone else and blocks
        // no one's reads or other writes (a create with one of its order numbers waits on the
        // unique index for it, then is refused).
        await db.transaction().execute(async (trx) => {
          for await (const orders of chunks()) {
            // Read on another connection: this transaction's own rows are counted in inBatch.
            await markAbnormal(orders);
            await writeChunk(trx, orders);
            await repo.updateBatch(db, batchId, { progress: progress(), heartbeat_at: now() });
            await deps.afterStagedChunk?.(batchId, written);
            await nextTurn();
          }
          await publish(trx);
        });
      } else {
        // SQLite: staged in short transactions, between which other users' writes take the one
        // writer; hidden from every order query until one statement marks the batch done.
        setBatchHidden(db, batchId, true);
        for await (const orders of chunks()) {
          // Before the chunk's transaction: SQLite's one connection is not taken twice.
          await markAbnormal(orders);
          await nextTurn();
          await db.transaction().execute(async (trx) => {
            await writeChunk(trx, orders);
            await repo.updateBatch(trx, batchId, { progress: progress(), heartbeat_at: now() });
          });
          await deps.afterStagedChunk?.(batchId, written);
          await nextTurn();
        }
        // One transaction: the batch is done and its reserved ranges settled together.
        await db.transaction().execute((trx) => publish(trx));
        setBatchHidden(db, batchId, false);
      }
      await settleJobWrite(db, userId);
      await removeFile(batch.parsed_key);
    } catch (e) {
      if (again && pg && isTransientDatabaseError(e)) {
        // Should this fail too (the database still away), the ranges stay recorded with the batch:
        // settled with the next run's (numbers skipped, never issued twice) or given back by its failure.
        await db
          .transaction()
          .execute((trx) => returnWaybills(trx, batchId))
          .catch(() => {});
        return 'again';
      }
      // A unique index refused a row: an order number taken between the chunk's check and its
      // insert (PostgreSQL, another connection) is named as such; anything else is the raw cause.
      const taken =
        classifyDatabaseError(e)?.kind === 'unique'
          ? await repo
              .existingOrderNos(
                db,
                batch.customer_id,
                chunk.map((o) => o.orderNo),
              )
              .catch(() => [])
          : [];
      let reason: string;
      if (e instanceof AppError) {
        reason =
          e.key === 'batchOrderNosTaken' || e.key === 'batchInterrupted'
            ? translate(lang, e.key, e.params)
            : translate(lang, 'batchCommitFailed', { reason: translate(lang, e.key, e.params) });
      } else if (taken.length) {
        reason = translate(lang, 'batchOrderNosTaken', { value: taken.slice(0, 5).join(', ') });
      } else {
        // A batch that lost a race to another write: the duplicate number, not the constraint's
        // name. Anything else is ours: the user gets an id to quote, the log the error with it
        // (an exception's text may name paths or SQL, never shown).
        // A full disk or database is a cause the user can act on (tell the administrator), in their words.
        let known = isStorageFull(e) ? translate(lang, 'storageFull') : databaseErrorText(lang, e);
        if (!known) {
          const errorId = randomUUID();
          deps.logError?.(e, { batchId, errorId });
          known = translate(lang, 'batchInternalError', { errorId });
        }
        reason = translate(lang, 'batchCommitFailed', { reason: known });
      }
      // Should even that fail, the batch stays committing and hidden: the job fails, and a later
      // start's recovery job fails the batch (recoverAtStart).
      await failCommit(batchId, batch.parsed_key, reason).catch(() => {});
    } finally {
      live.delete(batchId);
    }
  }

  /**
   * A commit that failed or was interrupted: its staged orders are removed while the batch still
   * hides them, then it is marked failed and its stored preview removed (it cannot be confirmed
   * again). Should this process die meanwhile, the job's next run does the same (commitRun).
   */
  async function failCommit(batchId: number, parsedKey: string | null, reason: string) {
    await removeFile(parsedKey);
    // Hidden until removed (on PostgreSQL the rollback already took them: nothing to remove).
    setBatchHidden(db, batchId, true);
    await repo.removeBatchOrders(batchId);
    // Failed and its waybill ranges given back together: once, by whoever moves it.
    await db.transaction().execute(async (trx) => {
      const moved = await repo.updateFrom(
        batchId,
        'committing',
        {
          status: 'failed',
          progress: 100,
          error_message: reason,
          parsed_key: null,
          preview_until: null,
          updated_at: now(),
          heartbeat_at: now(),
        },
        trx,
      );
      if (moved) await returnWaybills(trx, batchId);
    });
    setBatchHidden(db, batchId, false);
  }

  /**
   * A commit job. A run after the first (its instance died and the lease lapsed, or this process
   * stopped mid-commit) does not commit again: what the cut-off run staged is removed, its waybill
   * ranges given back and the batch failed with the reason, once (failCommit moves it only from
   * committing). Should the cut-off run still be alive somewhere, its publish finds the batch no
   * longer committing and rolls back: never two commits, orders or events.
   */
  async function commitRun(p: CommitPayload, ctx: JobContext) {
    const b = await repo.findAny(p.batchId);
    if (b?.status !== 'committing') return;
    if (p.recovered || ctx.attempt > 1) {
      await failCommit(b.id, b.parsed_key, interruptedMessage());
      return;
    }
    // PostgreSQL: a transient database error (a restart, a failover) rolls the commit's one
    // transaction back, and it runs again, with backoff, inside this job's lease; SQLite's staged
    // commit keeps its own rule (a failure fails the batch, its staged orders removed).
    for (let run = 1; ; run++) {
      if ((await commitJob(b.id, p.userId, p.lang, run <= TRANSIENT_RETRIES)) !== 'again') return;
      await sleep(retryDelayMs(TRANSIENT_DELAY_SECONDS, run), undefined, { signal: ctx.signal }).catch(() => {});
      // Stopping: the batch stays committing, and the next run of the job fails it as interrupted.
      if (ctx.signal.aborted) return;
    }
  }

  return { confirm, commitRun };
}
