import type { ApiLanguage } from '@console/contract';
import { exportDeclarations as C, ErrorCode } from '@console/contract';
import type { Database } from '../../db/database.ts';
import type { UploadedFile } from '../../http/call-context.ts';
import { AppError } from '../../lib/errors.ts';
import { queueKeyOfActor } from '../../lib/fair-turns.ts';
import { saveGeneratedFile, XLSX_MIME } from '../../lib/generated-files.ts';
import type { GaveUpReason, JobQueue } from '../../lib/jobs.ts';
import { translate } from '../../lib/messages.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import { readSheetRows } from '../../lib/sheet-rows.ts';
import type { Files } from '../../lib/files.ts';
import { isStorageFull, StoredFileMissing } from '../../lib/storage.ts';
import { buildWorkbookBuffer } from '../../lib/workbook-job.ts';
import { checkXlsxUpload } from '../../lib/xlsx-guard.ts';
import '../batches/index.ts';
import type { DeclarationsRepository } from './export-declarations.repository.ts';
import { declarationRowsOfSheet, type Layout } from './export-declarations.sheets.ts';
import type { JobPayload } from '../../lib/job-catalogue.ts';

export const ERRORS_KIND = 'export-declaration-errors';
const MAX_AMOUNT = 2_000_000_000;

/**
 * Spec §5: the product name and the amount are both filled or both empty; empty clears the
 * declaration; the amount is whole yen greater than 0. Answers the message key of the problem
 * (field, key) or the values to store (amount null = clear).
 */
export function checkPair(
  productName: string,
  amount: string | number,
):
  | { problem: { fields: ('productName' | 'amountJpy')[]; key: string } }
  | { productName: string; amountJpy: number | null } {
  const name = productName.trim();
  const a = String(amount).trim();
  if (!name && !a) return { productName: '', amountJpy: null };
  if (a) {
    // Whole yen; "1,000" and "1000.0" as a spreadsheet may show them are accepted, never a float.
    const digits = a.replace(/,/g, '').replace(/\.0+$/, '');
    if (!/^\d+$/.test(digits) || /^0+$/.test(digits))
      return { problem: { fields: ['amountJpy'], key: 'declAmountPositive' } };
    if (digits.length > 10 || Number(digits) > MAX_AMOUNT)
      return { problem: { fields: ['amountJpy'], key: 'declAmountTooLarge' } };
    // The pair rule is about both fields: the message goes on both.
    if (!name) return { problem: { fields: ['productName', 'amountJpy'], key: 'declPair' } };
    return { productName: name, amountJpy: Number(digits) };
  }
  return { problem: { fields: ['productName', 'amountJpy'], key: 'declPair' } };
}

/** The queue's kind of a declarations commit (lib/jobs.ts). */
const RUN_JOB = 'export-declaration-batch';
type RunPayload = JobPayload<'export-declaration-batch'>;
type RunRow = { orderId: number; customerId: number; productName: string; amountJpy: number | null };

/**
 * Declarations from a workbook (issue 27): the upload is read and every row checked in the call
 * (the preview and its error workbook); the commit of up to 5,000 rows is a run on the job queue.
 * The checked rows wait in the file store, the run is recorded and its job enqueued in one
 * transaction; a worker writes every row in one transaction with the run's end, guarded by the
 * run's state, so a run taken over from a dead instance (its transaction never committed) writes
 * them once, and a second run after a committed one writes nothing. The run's state is read from
 * the database by any instance (`exportDeclaration/batchRun`); a failure is a message key.
 */
export function createDeclarationBatches(deps: {
  db: Database;
  clock: () => Date;
  files: Files;
  jobs: JobQueue;
  uploadLimitBytes: number;
  repo: DeclarationsRepository;
  logError?: (err: unknown, context: { runId: number }) => void;
}) {
  const { db, clock, files, repo } = deps;
  const now = () => clock().toISOString();

  async function enqueueRun(actor: Actor, rows: RunRow[]) {
    const stored = await files.write(Buffer.from(JSON.stringify(rows)), 'export-declaration-run.json');
    const at = now();
    try {
      return await db.transaction().execute(async (trx) => {
        const id = await repo.insertRun(trx, {
          user_id: actor.userId,
          customer_id: actor.customerId,
          status: 'queued',
          total: rows.length,
          rows_key: stored.key,
          error: null,
          created_at: at,
          updated_at: at,
        });
        await deps.jobs.enqueue<RunPayload>(
          RUN_JOB,
          { runId: id },
          // Fair by the starter's key: an agent's or staff's runs are theirs, not everyone's (issue 36 #2).
          { trx, customerId: queueKeyOfActor(actor), size: 'heavy', singletonKey: String(id) },
        );
        return id;
      });
    } catch (e) {
      await files.discard(stored.key);
      throw e;
    }
  }

  async function runJob({ runId }: RunPayload) {
    const run = await repo.findRun(runId);
    if (!run || (run.status !== 'queued' && run.status !== 'running') || !run.rows_key) return;
    try {
      await repo.endRun(db, runId, { status: 'running' }, now());
      const rows = JSON.parse((await files.read(run.rows_key)).toString('utf8')) as RunRow[];
      await db.transaction().execute(async (trx) => {
        // Ended already (a run before this one committed): nothing is written twice.
        if (!(await repo.endRun(trx, runId, { status: 'done', rows_key: null }, now()))) return;
        await repo.save(trx, rows, run.user_id, now());
      });
    } catch (e) {
      const key =
        e instanceof StoredFileMissing ? 'declRunFileGone' : isStorageFull(e) ? 'storageFull' : 'declRunFailed';
      if (key === 'declRunFailed') deps.logError?.(e, { runId });
      // An instance whose database went (a crash) writes nothing here: the run is taken over.
      await repo.endRun(db, runId, { status: 'failed', error: key, rows_key: null }, now());
    }
    await files.discard(run.rows_key);
  }
  /**
   * A run that kept stopping its process, given up by the queue: failed with the reason (a key,
   * read in the reader's language), if still queued or running; one already ended is left alone.
   */
  async function failStopped({ runId }: RunPayload, reason: GaveUpReason) {
    const run = await repo.findRun(runId);
    if (!run) return;
    if (await repo.endRun(db, runId, { status: 'failed', error: reason, rows_key: null }, now()))
      if (run.rows_key) await files.discard(run.rows_key);
  }
  deps.jobs.define<RunPayload>({
    name: RUN_JOB,
    exclusive: true,
    run: (p) => runJob(p),
    gaveUp: (p, reason) => failStopped(p, reason),
  });

  /**
   * An upload: every row checked; written only when asked and every row is good, by a run on the
   * job queue (one transaction).
   */
  async function updateBatch(
    actor: Actor,
    scope: Scope,
    lang: ApiLanguage,
    layout: Layout,
    commit: boolean,
    upload: UploadedFile | undefined,
  ) {
    const file = await checkXlsxUpload(upload, deps.uploadLimitBytes);
    const read = await readSheetRows(file.data, C.DECLARATION_BATCH_MAX_ROWS + 2);
    if (read.type === 'problem') throw AppError.field('file', translate(lang, read.key, read.params));
    const entered = declarationRowsOfSheet(read.rows);
    if (!entered.length) throw AppError.field('file', 'declNoRows');
    if (entered.length > C.DECLARATION_BATCH_MAX_ROWS)
      throw AppError.field('file', 'declTooManyRows', { max: C.DECLARATION_BATCH_MAX_ROWS });
    const keyColumn = layout === 'orderNo' ? 'order_no' : 'waybill_no';
    const found = new Map(
      (await repo.byKeys(scope, keyColumn, [...new Set(entered.map((e) => e.key))])).map((o) => [o.key, o]),
    );
    const seen = new Set<string>();
    const checked = entered.map((e) => {
      const order = found.get(e.key);
      let error: string | null = null;
      let values: { productName: string; amountJpy: number | null } | null = null;
      if (seen.has(e.key)) error = translate(lang, 'declDuplicateKey', { key: e.key });
      else if (!order) error = translate(lang, 'declUnknownKey', { key: e.key });
      else if (order.currency !== 'JPY') error = translate(lang, 'declNotJapan');
      else {
        const c = checkPair(e.productName, e.amountJpy);
        if ('problem' in c) error = translate(lang, c.problem.key);
        else values = c;
      }
      seen.add(e.key);
      return { ...e, error, order, values };
    });
    const bad = checked.filter((c) => c.error);
    const at = now();
    const errorFileId = bad.length
      ? await saveGeneratedFile(db, files, {
          kind: ERRORS_KIND,
          name: `${translate(lang, 'declErrorsName')}.xlsx`,
          mime: XLSX_MIME,
          customerId: actor.customerId,
          ownerUserId: actor.userId,
          data: await buildWorkbookBuffer(db, {
            sheet: {
              name: translate(lang, 'declErrorsSheet'),
              boldHeader: true,
              frozenHeader: true,
              columns: [
                {
                  header:
                    lang === 'en'
                      ? layout === 'orderNo'
                        ? 'Order No'
                        : 'Waybill No'
                      : layout === 'orderNo'
                        ? '订单号'
                        : '运单号',
                  width: 22,
                },
                { header: lang === 'en' ? 'Product name' : '品名', width: 30 },
                { header: lang === 'en' ? 'Amount (JPY)' : '金额(JPY)', width: 14 },
                { header: translate(lang, 'declReasonColumn'), width: 60 },
                { header: translate(lang, 'declRowColumn'), width: 8 },
              ],
            },
            rows: bad.map((b) => [b.key, b.productName, b.amountJpy, b.error, b.row]),
          }),
          at,
        })
      : null;
    if (commit && bad.length) {
      throw AppError.conflict('declHasErrors', { count: bad.length }, { errorFileId });
    }
    // The write is the long part: a run on the job queue, enqueued in the transaction that records it.
    const runId = commit
      ? await enqueueRun(
          actor,
          checked.map((c) => ({ orderId: c.order!.id, customerId: c.order!.customer_id, ...c.values! })),
        )
      : null;
    // Bad rows first: they are what the user came to see.
    const shown = [...bad, ...checked.filter((c) => !c.error)].slice(0, C.DECLARATION_PREVIEW_ROWS);
    return {
      total: checked.length,
      valid: checked.length - bad.length,
      committed: false,
      rows: shown.map((c) => ({
        row: c.row,
        key: c.key,
        productName: c.productName,
        amountJpy: c.amountJpy,
        error: c.error,
      })),
      errorFileId,
      runId,
    };
  }

  return {
    updateBatch,

    /** The caller's run; another user's is "not found". */
    async batchRun(actor: Actor, lang: ApiLanguage, id: number) {
      const r = await repo.findRun(id, actor.userId);
      if (!r) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      return { id: r.id, status: r.status, total: Number(r.total), error: r.error ? translate(lang, r.error) : null };
    },
  };
}
