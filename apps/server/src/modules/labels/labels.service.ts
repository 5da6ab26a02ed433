import { type ApiLanguage, type CallParsed, ErrorCode, type labels } from '@console/contract';
import { refusal, transition } from '../../domain/order-life.ts';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import type { ProgressTracker } from '../../lib/export-progress.ts';
import { maskPhone } from '../../lib/mask.ts';
import { translate } from '../../lib/messages.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import fs from 'node:fs';
import { loadGeneratedFile, saveGeneratedFile } from '../../lib/generated-files.ts';
import type { Storage } from '../../lib/storage.ts';
import { renderFile } from '../../lib/workbook-job.ts';
import type { LabelOrder, LabelRender } from './labels.render.ts';
import { createLabelsRepository } from './labels.repository.ts';
import './labels.messages.ts';

const RENDER = { module: new URL('./labels.render.ts', import.meta.url).href, name: 'renderLabels' };

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

export function createLabelsService(deps: { db: Database; clock: () => Date; fontDir: string; files: Storage }) {
  const { db, clock } = deps;
  /** Jobs running in this process: shutdown waits for them. */
  const running = new Set<Promise<void>>();
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

  async function runPrint(
    jobId: number,
    actor: Actor,
    scope: Scope,
    lang: ApiLanguage,
    ids: number[],
    printer: string | null,
  ) {
    const update = (set: Record<string, unknown>) =>
      db
        .updateTable('print_jobs')
        .set({ ...set, updated_at: clock().toISOString() })
        .where('id', '=', jobId)
        .execute();
    let file: string | undefined;
    try {
      const { present, missing, toLabel } = await load(scope, ids).catch((e) => {
        // None of them in scope: every one is "not found", nothing to draw.
        if (e instanceof AppError && e.code === ErrorCode.NOT_FOUND)
          return { present: [], missing: ids, toLabel: null };
        throw e;
      });
      const at = clock().toISOString();
      const moved = present.length
        ? await db.transaction().execute((trx) =>
            transition(
              trx,
              'print',
              present.map((r) => r.id),
              { at, by: actor.userId, location: printer, note: 'labelA' },
            ),
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
      const printed = present.filter((r) => done.has(r.id));
      await update({ printed: printed.length, refused: JSON.stringify(refused) });
      if (!printed.length || !toLabel) {
        await update({ status: 'done' });
        return;
      }
      let last = 0;
      let writing = Promise.resolve();
      const progress: ProgressTracker = {
        writing: () => {},
        total: () => {},
        rows: (n) => {
          if (Date.now() - last < PROGRESS_EVERY_MS) return;
          last = Date.now();
          writing = writing.then(() => update({ drawn: n }).then(() => {}));
        },
        done: () => {},
        failed: () => {},
        flushed: () => writing,
      };
      file = await render({ kind: 'labelA', orders: printed.map(toLabel) }, progress);
      await writing;
      const fileId = await saveGeneratedFile(db, deps.files, {
        kind: 'labelPrintJob',
        name: `labelA-${jobId}.pdf`,
        mime: PDF,
        customerId: null,
        ownerUserId: actor.userId,
        data: await fs.promises.readFile(file),
        at: clock().toISOString(),
      });
      await update({ status: 'done', drawn: printed.length, file_id: fileId });
    } catch (e) {
      await update({ status: 'failed', error: translate(lang, 'printJobFailed') }).catch(() => {});
      if (!(e instanceof AppError)) console.error(`print job ${jobId} failed`, e);
    } finally {
      if (file) fs.rm(file, { force: true }, () => {});
    }
  }

  return {
    /** Jobs a previous process left running are failed: nothing finishes them now. */
    async recoverAtStart() {
      await db
        .updateTable('print_jobs')
        .set({ status: 'failed', error: 'interrupted', updated_at: clock().toISOString() })
        .where('status', '=', 'running')
        .execute();
    },

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
            note: 'labelA',
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
      const { id } = await db
        .insertInto('print_jobs')
        .values({
          user_id: actor.userId,
          printer: p.printer ?? null,
          status: 'running',
          total: ids.length,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const job = runPrint(id, actor, scope, lang, ids, p.printer ?? null).finally(() => running.delete(job));
      running.add(job);
      return { jobId: id };
    },

    async printResult(actor: Actor, jobId: number): Promise<labels.PrintJob> {
      const j = await db
        .selectFrom('print_jobs')
        .selectAll()
        .where('id', '=', jobId)
        .where('user_id', '=', actor.userId)
        .executeTakeFirst();
      if (!j) throw new AppError(ErrorCode.NOT_FOUND, 'printJobNotFound');
      return {
        jobId: j.id,
        status: j.status as labels.PrintJob['status'],
        total: j.total,
        printed: j.printed,
        drawn: j.drawn,
        refused: JSON.parse(j.refused),
        fileId: j.file_id,
        error: j.error,
      };
    },

    /** A file the server made for the caller (file/downloadSteam): the print jobs' PDFs. */
    async file(actor: Actor, id: number) {
      const f = await loadGeneratedFile(db, deps.files, { id, kind: 'labelPrintJob', userId: actor.userId });
      if (!f) throw new AppError(ErrorCode.NOT_FOUND, 'fileNotFound');
      return f;
    },

    /** Waits for the jobs still running (shutdown). */
    async close() {
      await Promise.allSettled([...running]);
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
