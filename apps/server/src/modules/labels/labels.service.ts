import { type ApiLanguage, type CallParsed, ErrorCode, type labels } from '@console/contract';
import { refusal, transition } from '../../domain/order-life.ts';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import type { ProgressTracker } from '../../lib/export-progress.ts';
import { queueKeyOfActor } from '../../lib/fair-turns.ts';
import { maskPhone } from '../../lib/mask.ts';
import { translate } from '../../lib/messages.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import fs from 'node:fs';
import { loadGeneratedFile, recordGeneratedFile } from '../../lib/generated-files.ts';
import type { JobQueue } from '../../lib/jobs.ts';
import type { Files } from '../../lib/files.ts';
import { renderFile } from '../../lib/workbook-job.ts';
import type { LabelOrder, LabelRender } from './labels.render.ts';
import { createLabelsRepository } from './labels.repository.ts';
import { printJobProgress } from './print-progress.ts';

const RENDER = { kind: 'labels' } as const;

type Rows = Awaited<ReturnType<ReturnType<typeof createLabelsRepository>['orders']>>;

/** Province, city, district and street as one line, a municipality's repeated name once. */
function fullAddress(r: Rows['rows'][number]) {
  const parts = [r.recipient_province, r.recipient_city, r.recipient_district, r.recipient_address].filter(Boolean);
  return parts.filter((p, i) => p !== parts[i - 1]).join('');
}

/** The UTC+8 wall time the label prints (spec: displayed times add 8 hours). */
const chinaMinute = (d: Date) => new Date(d.getTime() + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');

const PDF = 'application/pdf';
/** How often a running job writes how far it got (the result call reads the database). */
const PROGRESS_EVERY_MS = 300;

/** A print job as queued: what its run needs, whichever instance runs it. */
type PrintPayload = {
  jobId: number;
  userId: number;
  scope: Scope;
  lang: ApiLanguage;
  ids: number[];
  printer: string | null;
};
const PRINT_JOB = 'label-print';
/** Another run of the same job got there first: this one leaves the row to it. */
class Superseded extends Error {}

export function createLabelsService(deps: {
  db: Database;
  clock: () => Date;
  fontDir: string;
  files: Files;
  /** The queue print jobs run on (lib/jobs.ts). */
  jobs: JobQueue;
  /** Where a print job's unexpected failure goes (the app's logger); the user reads the job's reason. */
  logError?: (err: unknown, jobId: number) => void;
}) {
  const { db, clock } = deps;
  const repo = createLabelsRepository(db);

  /**
   * The orders asked for, in the order asked, as labels show them; 404 when none is in the
   * caller's scope (another tenant's ids read as not found).
   */
  async function load(scope: Scope, ids: readonly number[]) {
    const wanted = [...new Set(ids)];
    const { rows, items } = await repo.orders(scope, wanted);
    if (!rows.length) throw new AppError(ErrorCode.NOT_FOUND, 'orderNotFound');
    const byId = new Map(rows.map((r) => [r.id, r]));
    const itemsOf = Map.groupBy(items, (i) => i.order_id);
    const missing = wanted.filter((id) => !byId.has(id));
    const present = wanted.filter((id) => byId.has(id)).map((id) => byId.get(id)!);
    const toLabel = (r: Rows['rows'][number]): LabelOrder => ({
      waybillNo: r.waybill_no ?? r.order_no,
      channel: r.channel_code,
      orderNo: r.order_no,
      splitWaybillNo: r.split_waybill_no,
      recipient: {
        name: r.recipient_name,
        phone: maskPhone(r.recipient_phone),
        address: fullAddress(r),
        postcode: r.recipient_postcode,
      },
      sender: { name: r.sender_name, phone: r.sender_phone, address: r.sender_address },
      items: (itemsOf.get(r.id) ?? []).map((i) => ({ name: i.name, jan: i.jan, quantity: i.quantity })),
      // The address changed after the label was printed (modules/label-b): this is label B.
      replacement: r.label_b === 1,
    });
    return { present, missing, toLabel };
  }

  /** 409 naming each order that cannot be printed and why (the order-life rule), or nothing. */
  function refuse(
    lang: ApiLanguage,
    missing: number[],
    refused: { orderNo: string | null; key: string }[],
  ): never | void {
    const list = [
      ...missing.map(() => ({ orderNo: null, reason: translate(lang, 'orderNotFound') })),
      ...refused.map((r) => ({ orderNo: r.orderNo, reason: translate(lang, r.key, { orderNo: r.orderNo ?? '' }) })),
    ];
    if (!list.length) return;
    throw AppError.conflict('labelsRefused', { count: list.length, first: list[0]!.reason }, { refused: list });
  }

  async function render(job: Omit<LabelRender, 'fontDir' | 'printedAt'>, progress?: ProgressTracker) {
    const arg: LabelRender = { ...job, printedAt: chinaMinute(clock()), fontDir: deps.fontDir };
    return renderFile({ ...RENDER, arg }, { ext: 'pdf', total: job.orders.length }, progress);
  }

  /**
   * A print job on the job queue (lib/jobs.ts): run by one instance, the queue's lease its own
   * while it lives; taken over by another only once that instance is gone, so a run may find the
   * work half done. It counts the prints and records which orders it counted in one transaction
   * (a run after that draws those, counting nothing again), then stores the PDF and finishes the
   * row in one transaction, only while the row is still running: a job already finished is left
   * as it is, and a late run's finish is rolled back.
   */
  async function runPrint(p: PrintPayload) {
    const { jobId, userId, scope, lang, ids, printer } = p;
    const at = () => clock().toISOString();
    let file: string | undefined;
    try {
      let job = await repo.printJob(jobId);
      if (!job || job.status !== 'running') return;
      if (job.printed_ids === null) {
        const { present, missing } = await load(scope, ids).catch((e) => {
          // None of them in scope: every one is "not found", nothing to draw.
          if (e instanceof AppError && e.code === ErrorCode.NOT_FOUND) return { present: [], missing: ids };
          throw e;
        });
        const counted = await db.transaction().execute(async (trx) => {
          const moved = present.length
            ? await transition(
                trx,
                'print',
                present.map((r) => r.id),
                // No note: the template's name is ours, and the event reaches the customer
                // (console, v1 tracking, webhooks); the printer is its place.
                { at: at(), by: userId, location: printer },
              )
            : { done: [], refused: [] };
          const refused = [
            ...missing.map(() => ({ orderNo: null, reason: translate(lang, 'orderNotFound') })),
            ...moved.refused.map((r) => ({
              orderNo: r.orderNo,
              reason: translate(lang, r.key, { orderNo: r.orderNo ?? '' }),
            })),
          ];
          const done = new Set(moved.done);
          const printed = present.filter((r) => done.has(r.id)).map((r) => r.id);
          const recorded = await repo.updateRunningPrintJob(
            trx,
            jobId,
            {
              printed: printed.length,
              refused: JSON.stringify(refused),
              printed_ids: JSON.stringify(printed),
              updated_at: at(),
              ...(printed.length ? {} : { status: 'done' }),
            },
            true,
          );
          // Another run counted them first (or the job ended): this one's counts roll back.
          if (!recorded) throw new Superseded();
          return printed;
        });
        if (!counted.length) return;
        job = (await repo.printJob(jobId))!;
      }
      const printedIds = JSON.parse(job.printed_ids!) as number[];
      if (!printedIds.length) {
        await repo.updateRunningPrintJob(db, jobId, { status: 'done', updated_at: at() });
        return;
      }
      // Drawn as counted, in the order asked (an order's address may have changed since: it is drawn as it is now).
      const { present, toLabel } = await load(scope, printedIds);
      const progress = printJobProgress(
        (drawn) => repo.updateRunningPrintJob(db, jobId, { drawn, updated_at: at() }),
        PROGRESS_EVERY_MS,
      );
      file = await render({ kind: 'labelA', orders: present.map(toLabel) }, progress);
      await progress.flushed();
      const name = `labelA-${jobId}.pdf`;
      // The bytes first, the writer not held; then the file's row and the job's end together.
      const stored = await deps.files.write(await fs.promises.readFile(file), name);
      try {
        await db.transaction().execute(async (trx) => {
          const fileId = await recordGeneratedFile(trx, stored, {
            kind: 'labelPrintJob',
            name,
            mime: PDF,
            customerId: null,
            ownerUserId: userId,
            at: at(),
          });
          const set = { status: 'done', drawn: present.length, file_id: fileId, updated_at: at() };
          if (!(await repo.updateRunningPrintJob(trx, jobId, set))) throw new Superseded();
        });
      } catch (e) {
        await deps.files.discard(stored.key).catch(() => {});
        throw e;
      }
    } catch (e) {
      if (e instanceof Superseded) return;
      // A key, translated when read, in the reader's language.
      await repo
        .updateRunningPrintJob(db, jobId, { status: 'failed', error: 'printJobFailed', updated_at: at() })
        .catch(() => {});
      if (!(e instanceof AppError)) deps.logError?.(e, jobId);
    } finally {
      if (file) fs.rm(file, { force: true }, () => {});
    }
  }

  deps.jobs.define<PrintPayload>({
    name: PRINT_JOB,
    run: (p) => runPrint(p),
    // A print that kept stopping its process: the job says so (a key, translated when read),
    // rather than running for good. The orders it counted stay counted, as after any failure.
    gaveUp: async (p, reason) =>
      void (await repo.updateRunningPrintJob(db, p.jobId, {
        status: 'failed',
        error: reason,
        updated_at: clock().toISOString(),
      })),
  });

  return {
    /**
     * Waybill labels: a print of each order through the order life (checked and counted in one
     * transaction, before the PDF is drawn: a refused order refuses the whole download, nothing
     * counted). The PDF is then drawn in a worker; if drawing fails the print stays counted —
     * the console shows the failure and the user prints again, which the count then says.
     */
    async labelA(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      p: CallParsed<typeof labels.downloadLabelA>,
      progress?: ProgressTracker,
    ) {
      const { present, missing, toLabel } = await load(scope, p.ids);
      // Refused before writing anything: the same rule the UPDATE checks.
      const early = present
        .map((r) => ({ orderNo: r.order_no, key: refusal(r, 'print') }))
        .filter((r): r is { orderNo: string; key: string } => r.key !== null);
      refuse(lang, missing, early);
      const at = clock().toISOString();
      await db.transaction().execute(async (trx) => {
        const moved = await transition(
          trx,
          'print',
          present.map((r) => r.id),
          {
            at,
            by: actor.userId,
            location: p.printer ?? null,
          },
        );
        // Changed between the read and the write (intercepted meanwhile): nothing is counted.
        refuse(lang, [], moved.refused);
      });
      return render({ kind: 'labelA', orders: present.map(toLabel) }, progress);
    },

    /**
     * A print job: the row is written and its id answered at once; the job then prints what can
     * be printed (one transaction, through the order life), lists the rest with their reason and
     * draws the PDF in a worker, writing its progress to the row as it goes.
     */
    async startPrint(actor: Actor, scope: Scope, lang: ApiLanguage, p: CallParsed<typeof labels.printLabelA>) {
      const ids = [...new Set(p.ids)];
      const at = clock().toISOString();
      // The row and its job commit together: no job running without a queue job to run it.
      const id = await db.transaction().execute(async (trx) => {
        const id = await repo.insertPrintJob(trx, {
          user_id: actor.userId,
          printer: p.printer ?? null,
          status: 'running',
          total: ids.length,
          created_at: at,
          updated_at: at,
        });
        const payload: PrintPayload = { jobId: id, userId: actor.userId, scope, lang, ids, printer: p.printer ?? null };
        // Fair by the starter's key: an agent's or staff's runs are theirs, not everyone's (issue 36 #2).
        await deps.jobs.enqueue(PRINT_JOB, payload, { trx, customerId: queueKeyOfActor(actor), size: 'heavy' });
        return id;
      });
      return { jobId: id };
    },

    async printResult(actor: Actor, lang: ApiLanguage, jobId: number): Promise<labels.PrintJob> {
      const j = await repo.printJobOf(actor.userId, jobId);
      if (!j) throw new AppError(ErrorCode.NOT_FOUND, 'printJobNotFound');
      return {
        jobId: j.id,
        status: j.status as labels.PrintJob['status'],
        total: j.total,
        printed: j.printed,
        drawn: j.drawn,
        refused: JSON.parse(j.refused),
        fileId: j.file_id,
        error: j.error === null ? null : translate(lang, j.error),
      };
    },

    /** A file the server made for the caller (file/downloadSteam): the print jobs' PDFs. */
    async file(actor: Actor, id: number) {
      const f = await loadGeneratedFile(db, deps.files, { id, kind: 'labelPrintJob', userId: actor.userId });
      if (!f) throw new AppError(ErrorCode.NOT_FOUND, 'fileNotFound');
      return f;
    },

    /** Product labels (picking list): the orders' items; no print is counted. */
    async labelProduct(scope: Scope, p: CallParsed<typeof labels.downloadLabelProduct>, progress?: ProgressTracker) {
      const { present, missing, toLabel } = await load(scope, p.ids);
      if (missing.length) throw new AppError(ErrorCode.NOT_FOUND, 'orderNotFound', { ids: missing });
      return render({ kind: 'product', orders: present.map(toLabel) }, progress);
    },
  };
}
export type LabelsService = ReturnType<typeof createLabelsService>;
