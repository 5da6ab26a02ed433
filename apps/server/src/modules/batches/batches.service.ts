import { type ApiLanguage, batches as contract, chinaDate, ErrorCode } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import type { OrderInput } from '../../domain/order-input.ts';
import { insertOrders } from '../../domain/order-writer.ts';
import { Download } from '../../http/call-context.ts';
import { databaseErrorText } from '../../http/error-handler.ts';
import { AppError } from '../../lib/errors.ts';
import { translate } from '../../lib/messages.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import { isStorageFull, type Storage } from '../../lib/storage.ts';
import { assertRealSizes, ZipBombError } from '../../lib/zip.ts';
import { buildWorkbookStream } from '../../lib/workbook-job.ts';
import { cnDivisions } from '../reference/cn-divisions.ts';
import { batchOrdersJob } from './batch-orders.export.ts';
import './batches.messages.ts';
import { createBatchesRepository } from './batches.repository.ts';
import { createParsePool, parseFailureText } from './parse-pool.ts';
import type { Issue, ParseJob } from './parse.worker.ts';
import { buildTemplate } from './template-workbook.ts';
import { COLUMNS, TEMPLATES, templateFor } from './templates.ts';
import { guardXlsx } from './xlsx-guard.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const MAX_ROWS = 100_000;
/** A running batch whose heartbeat is older than this belongs to a server that is gone. */
const STALE_MS = 60_000;

type UploadCall = 'create' | 'createImport' | 'createImportByBoxC' | 'createUsaBoxcImport' | 'createEmsImport';
type Preview = {
  errors: Issue[];
  confirmations: {
    kind: string;
    key: string;
    params?: Record<string, string | number>;
    rows: number[];
    count: number;
  }[];
  duplicates: { orderNo: string; rows: number[]; keptRow: number }[];
  fatal?: { key: string; params?: Record<string, string | number> };
};
type BatchRecord = NonNullable<Awaited<ReturnType<ReturnType<typeof createBatchesRepository>['find']>>>;

export interface BatchesDeps {
  db: Database;
  clock: () => Date;
  files: Storage;
  assertNoticesClear: (actor: Actor) => Promise<void>;
  uploadLimitBytes: number;
  /** Parse workers at once, and each one's time and heap limits (config PARSE_*). */
  parse?: { workers: number; timeoutSeconds: number; memoryMb: number };
}

/**
 * Batch import: upload → parse and validate in a worker (preview, error workbook)
 * → confirm → one transaction writes every order or none. Progress lives in the
 * batches row (and in memory while this process runs the job).
 */
export function createBatchesService(deps: BatchesDeps) {
  const { db, clock, files } = deps;
  const repo = createBatchesRepository(db);
  const now = () => clock().toISOString();
  /** Jobs this process runs: live progress, and the parsed orders awaiting confirmation. */
  const live = new Map<number, { progress: number }>();
  const parsed = new Map<number, { orders: OrderInput[]; at: number }>();
  const running = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>) => {
    running.add(p);
    void p.finally(() => running.delete(p));
  };

  const present = (b: BatchRecord) => ({
    id: b.id,
    batchNo: b.batch_no,
    customerId: b.customer_id,
    customerCode: b.customer_code,
    channel: b.channel_code as never,
    templateKind: b.template_kind,
    exportNomination:
      b.export_nomination_id !== null ? { id: b.export_nomination_id, name: b.export_nomination_name ?? '' } : null,
    status: b.status as never,
    progress: live.get(b.id)?.progress ?? b.progress,
    totalRows: b.total_rows,
    validRows: b.valid_rows,
    invalidRows: b.invalid_rows,
    confirmRows: b.confirm_rows,
    orderCount: b.order_count,
    receiveStatus: b.receive_status,
    errorMessage: b.error_message,
    hasErrorWorkbook: b.error_file_id !== null,
    createdAt: b.created_at,
    updatedAt: b.updated_at,
  });

  // Parses wait for one of a fixed number of workers, each with memory and time limits (parse-pool.ts).
  const pool = createParsePool({
    workers: deps.parse?.workers ?? 1,
    timeoutMs: (deps.parse?.timeoutSeconds ?? 300) * 1000,
    memoryMb: deps.parse?.memoryMb ?? 768,
  });

  function runWorker(job: ParseJob, customerId: number, onProgress: (f: number) => void, key?: number) {
    return pool.run(job, {
      key,
      onProgress,
      existingOrderNos: (orderNos) => repo.existingOrderNos(db, customerId, orderNos),
    });
  }

  async function jobFor(
    batch: {
      customer_id: number;
      template_kind: string;
      channel_code: string;
      export_nomination_id: number | null;
      clearance_company_code: string | null;
    },
    file: Buffer,
    lang: ApiLanguage,
  ): Promise<ParseJob> {
    const ref = await repo.referenceData();
    return {
      file: new Uint8Array(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength)),
      kind: batch.template_kind as ParseJob['kind'],
      channel: batch.channel_code,
      customerId: batch.customer_id,
      exportNominationId: batch.export_nomination_id,
      clearanceCompany: batch.clearance_company_code,
      now: now(),
      lang,
      maxRows: MAX_ROWS,
      ...ref,
    };
  }

  async function parseJob(batchId: number, job: ParseJob) {
    live.set(batchId, { progress: 0 });
    let lastBeat = Date.now();
    try {
      const r = await runWorker(
        job,
        job.customerId,
        (f) => {
          const progress = Math.floor(f * 100);
          live.set(batchId, { progress });
          if (Date.now() - lastBeat > 5_000) {
            lastBeat = Date.now();
            void repo.updateBatch(db, batchId, { progress, heartbeat_at: now() });
          }
        },
        batchId,
      );
      if (r.fatal) {
        await repo.updateBatch(db, batchId, {
          status: 'failed',
          progress: 100,
          error_message: parseFailureText(job.lang, r.fatal),
          preview: JSON.stringify({ errors: [], confirmations: [], duplicates: [], fatal: r.fatal } satisfies Preview),
          updated_at: now(),
        });
        return;
      }
      const d = r.done!;
      let errorFileId: number | null = null;
      if (d.errorWorkbook) {
        const buf = Buffer.from(d.errorWorkbook);
        const stored = await files.put(buf, 'errors.xlsx');
        const batch = await repo.findAny(batchId);
        errorFileId = (
          await repo.insertFile({
            customer_id: batch!.customer_id,
            owner_user_id: batch!.created_by,
            kind: 'batchErrors',
            name: `${batch!.batch_no}-errors.xlsx`,
            mime: XLSX,
            size: stored.size,
            sha256: stored.sha256,
            storage_key: stored.key,
            created_at: now(),
          })
        ).id;
      }
      if (d.invalidRows === 0) parsed.set(batchId, { orders: r.orders, at: Date.now() });
      await repo.updateBatch(db, batchId, {
        status: 'preview',
        progress: 100,
        total_rows: d.totalRows,
        valid_rows: d.validRows,
        invalid_rows: d.invalidRows,
        confirm_rows: d.confirmRows,
        order_count: d.orderCount,
        error_file_id: errorFileId,
        preview: JSON.stringify({
          errors: d.errors,
          confirmations: d.confirmations,
          duplicates: d.duplicates,
        } satisfies Preview),
        updated_at: now(),
        heartbeat_at: now(),
      });
    } finally {
      live.delete(batchId);
    }
  }

  /** A parse whose result could not be stored (a full disk): the batch fails with that reason, not `parsing`. */
  async function failParse(batchId: number, lang: ApiLanguage, e: unknown) {
    const reason = isStorageFull(e) ? 'storageFull' : 'internal';
    await repo
      .updateBatch(db, batchId, {
        status: 'failed',
        progress: 100,
        error_message: translate(lang, reason),
        updated_at: now(),
      })
      .catch(() => {});
  }

  async function commitJob(batchId: number, actor: Actor, lang: ApiLanguage) {
    live.set(batchId, { progress: 0 });
    try {
      const batch = (await repo.findAny(batchId))!;
      let orders = parsed.get(batchId)?.orders;
      if (!orders) {
        // Parsed by another instance or before a restart: parse the stored file again.
        const file = await repo.file(batch.file_id!);
        const r = await runWorker(
          await jobFor(batch, await files.get(file!.storage_key), lang),
          batch.customer_id,
          (f) => live.set(batchId, { progress: Math.floor(f * 30) }),
        );
        if (!r.done || r.done.invalidRows > 0) {
          throw new AppError(ErrorCode.CONFLICT, r.fatal?.key ?? 'batchHasErrors', null, r.fatal?.params);
        }
        orders = r.orders;
      }
      const total = orders.length;
      const pg = dialectOf(db) === 'postgres';
      await db.transaction().execute(async (trx) => {
        // Checked again inside the transaction: another import may have taken a number since the preview.
        const taken = await repo.existingOrderNos(
          trx,
          batch.customer_id,
          orders.map((o) => o.orderNo),
        );
        if (taken.length)
          throw new AppError(ErrorCode.CONFLICT, 'batchOrderNosTaken', null, { value: taken.slice(0, 5).join(', ') });
        let lastBeat = Date.now();
        await insertOrders(trx, orders, {
          batchId,
          createdBy: actor.userId,
          now: now(),
          onProgress: async (written) => {
            live.set(batchId, { progress: Math.floor((written / total) * 100) });
            // PostgreSQL can beat outside the transaction; SQLite's single writer is ours until commit.
            if (pg && Date.now() - lastBeat > 5_000) {
              lastBeat = Date.now();
              await repo.updateBatch(db, batchId, { heartbeat_at: now() });
            }
            // Let other users' requests run between chunks.
            await new Promise((r) => setImmediate(r));
          },
        });
        await repo.updateBatch(trx, batchId, {
          status: 'done',
          progress: 100,
          order_count: total,
          updated_at: now(),
          heartbeat_at: now(),
        });
      });
      parsed.delete(batchId);
    } catch (e) {
      const reason =
        e instanceof AppError
          ? e.key === 'batchOrderNosTaken'
            ? translate(lang, e.key, e.params)
            : translate(lang, 'batchCommitFailed', { reason: translate(lang, e.key, e.params) })
          : translate(lang, 'batchCommitFailed', {
              // A batch that lost a race to another write: the duplicate number, not the constraint's name.
              reason: databaseErrorText(lang, e) ?? (e as Error).message.slice(0, 200),
            });
      await repo.updateBatch(db, batchId, {
        status: 'failed',
        progress: 100,
        error_message: reason,
        updated_at: now(),
      });
    } finally {
      live.delete(batchId);
    }
  }

  /** Where a parsing batch stands in line for a worker (absent when it is not waiting or running). */
  const queued = (id: number) => {
    const at = pool.position(id);
    return at === undefined ? {} : { queuePosition: at };
  };

  async function loadScoped(scope: Scope, id: number) {
    const b = await repo.find(scope, id);
    if (!b) throw new AppError(ErrorCode.NOT_FOUND, 'batchNotFound');
    return b;
  }

  async function checkStale(b: BatchRecord) {
    if ((b.status === 'parsing' || b.status === 'committing') && !live.has(b.id)) {
      const beat = b.heartbeat_at ?? b.updated_at;
      if (clock().getTime() - new Date(beat).getTime() > STALE_MS) {
        await recoverInterrupted();
        return true;
      }
    }
    return false;
  }

  async function recoverInterrupted(lang: ApiLanguage = 'zh-CN') {
    const cutoff = new Date(clock().getTime() - STALE_MS).toISOString();
    const msg = `${translate(lang, 'batchInterrupted')} / ${translate('en', 'batchInterrupted')}`;
    await repo.failStale(cutoff, now(), msg);
  }

  return {
    recoverInterrupted,
    /** Resolves when every job started by this process has finished (tests, graceful shutdown). */
    async idle() {
      while (running.size) await Promise.allSettled([...running]);
    },
    /** Ends running and waiting parses (their batches fail with a reason), then waits for every job. */
    async close() {
      await pool.close();
      while (running.size) await Promise.allSettled([...running]);
    },

    async template(kind: contract.TemplateKind) {
      const def = TEMPLATES[kind];
      const ref = await repo.referenceData();
      const lists = {
        channel: ref.channels.map((c) => c.code),
        currency: ref.currencies.map(([c]) => c),
        clearanceCompany: ref.clearanceCompanies,
        orderType: ref.orderTypes,
        province: cnDivisions.provinces().map((p) => p.name),
      };
      const currency = ref.channels.find((c) => c.code === def.channel)?.currency;
      return new Download(`${def.title.zh}-${kind}.xlsx`, XLSX, await buildTemplate(def, lists, currency));
    },

    async upload(
      call: UploadCall,
      actor: Actor,
      scope: Scope,
      input: contract.UploadFields,
      upload: { filename: string; data: Buffer } | undefined,
      lang: ApiLanguage,
    ) {
      if (!upload) throw AppError.field('file', 'fileRequired');
      if (!/\.xlsx$/i.test(upload.filename)) throw AppError.field('file', 'fileNotXlsx');
      if (upload.data.length > deps.uploadLimitBytes) throw AppError.field('file', 'fileTooLarge');
      const guard = guardXlsx(upload.data);
      if (!guard.ok) {
        const key = {
          notXlsx: 'fileNotXlsx',
          encryptedOrXls: 'fileEncryptedOrXls',
          zipBomb: 'fileZipBomb',
          corruptFile: 'fileCorrupt',
        }[guard.problem];
        throw AppError.field('file', key);
      }
      // The declared sizes passed; now the real ones, before a batch exists (lib/zip.ts).
      await assertRealSizes(upload.data, guard.entries).catch((e: unknown) => {
        throw AppError.field('file', e instanceof ZipBombError ? 'fileZipBomb' : 'fileCorrupt');
      });
      const customerId = customerFor(actor, scope, input.customerId);
      const kind = templateFor(call, input.channel);
      if (!kind) throw AppError.field('channel', input.channel ? 'channelNotForCall' : 'channelRequired');
      const def = TEMPLATES[kind];
      if (def.channel && input.channel && input.channel !== def.channel)
        throw AppError.field('channel', 'channelNotForCall');
      const channel = def.channel ?? input.channel ?? null;
      if (kind !== 'order' && !channel) throw AppError.field('channel', 'channelRequired');
      if (input.exportNominationId && !(await repo.exportNominationOf(input.exportNominationId, customerId))) {
        throw AppError.field('exportNominationId', 'notFound');
      }
      const ref = await repo.referenceData();
      if (input.clearanceCompany && !ref.clearanceCompanies.includes(input.clearanceCompany)) {
        throw AppError.field('clearanceCompany', 'clearanceCompanyUnknown');
      }
      await deps.assertNoticesClear(actor);

      const t = now();
      const stored = await files.put(upload.data, upload.filename);
      // A failed insert (a full database) leaves no stored file behind that nothing points at.
      const forget = (e: unknown) =>
        files.remove(stored.key).then(
          () => Promise.reject(e),
          () => Promise.reject(e),
        );
      const file = await repo
        .insertFile({
          customer_id: customerId,
          owner_user_id: actor.userId,
          kind: 'batchUpload',
          name: upload.filename.slice(0, 200),
          mime: XLSX,
          size: stored.size,
          sha256: stored.sha256,
          storage_key: stored.key,
          created_at: t,
        })
        .catch(forget);
      const batchNo = `B${chinaDate(clock()).replaceAll('-', '')}${String(Date.now() % 1e7).padStart(7, '0')}${Math.floor(
        Math.random() * 100,
      )
        .toString()
        .padStart(2, '0')}`;
      const batch = {
        batch_no: batchNo,
        customer_id: customerId,
        channel_code: channel ?? 'JP',
        template_kind: kind,
        export_nomination_id: input.exportNominationId ?? null,
        clearance_company_code: input.clearanceCompany ?? null,
        file_id: file.id,
        status: 'parsing',
        created_by: actor.userId,
        created_at: t,
        updated_at: t,
        heartbeat_at: t,
      };
      const { id } = await repo.insertBatch(batch);
      const job = await jobFor(batch, upload.data, lang);
      // The order template may name the channel per row; the page's choice is the default.
      job.channel = channel;
      track(parseJob(id, job).catch((e: unknown) => failParse(id, job.lang, e)));
      return present((await repo.find(scope, id))!);
    },

    async confirm(actor: Actor, scope: Scope, id: number, confirmations: string[], lang: ApiLanguage) {
      const b = await loadScoped(scope, id);
      if (b.status !== 'preview') {
        throw AppError.conflict('batchNotInPreview', { status: b.status });
      }
      if (b.invalid_rows > 0) throw AppError.field('id', 'batchHasErrors');
      const preview = JSON.parse(b.preview ?? '{}') as Preview;
      const missing = (preview.confirmations ?? []).filter((c) => !confirmations.includes(c.kind));
      if (missing.length) {
        throw AppError.validation({ confirmations: missing.map((c) => `confirmKind_${c.kind}`) });
      }
      await deps.assertNoticesClear(actor);
      // Claim the batch atomically: two confirms of one batch commit it once.
      const claimed = await db
        .updateTable('batches')
        .set({ status: 'committing', progress: 0, updated_at: now(), heartbeat_at: now() })
        .where('id', '=', id)
        .where('status', '=', 'preview')
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) throw AppError.conflict('batchBusy');
      track(commitJob(id, actor, lang));
      return present((await repo.find(scope, id))!);
    },

    async progress(scope: Scope, id: number, lang: ApiLanguage) {
      let b = await loadScoped(scope, id);
      if (await checkStale(b)) b = await loadScoped(scope, id);
      const preview = JSON.parse(b.preview ?? '{}') as Partial<Preview>;
      const titleOf = (k: string | null) =>
        k ? (lang === 'en' ? COLUMNS[k as 'orderNo'].en : COLUMNS[k as 'orderNo'].zh) : null;
      return {
        ...present(b),
        errors: (preview.errors ?? []).slice(0, 100).map((e) => ({
          row: e.row,
          column: e.letter,
          columnTitle: titleOf(e.col),
          message: translate(lang, e.key, e.params),
        })),
        confirmations: (preview.confirmations ?? []).map((c) => ({
          kind: c.kind as never,
          message: translate(lang, c.key, c.params),
          count: c.count,
          rows: c.rows,
        })),
        duplicates: preview.duplicates ?? [],
        ...queued(b.id),
      };
    },

    async errorWorkbook(scope: Scope, id: number) {
      const b = await loadScoped(scope, id);
      if (!b.error_file_id) throw AppError.badRequest('noErrorWorkbook');
      const f = (await repo.file(b.error_file_id))!;
      return new Download(f.name, XLSX, await files.get(f.storage_key));
    },

    async page(scope: Scope, p: Parameters<typeof repo.page>[1]) {
      const { total, list } = await repo.page(scope, p);
      return { total, list: list.map(present) };
    },
    async search(scope: Scope, p: Parameters<typeof repo.search>[1]) {
      const { total, list } = await repo.search(scope, p);
      return { total, list: list.map(present) };
    },

    async remove(scope: Scope, id: number) {
      const b = await loadScoped(scope, id);
      if (b.status === 'parsing' || b.status === 'committing') throw AppError.conflict('batchBusy');
      const moved = await repo.movedOrders(id);
      if (moved) throw AppError.conflict('batchDeleteRefused', { count: Number(moved.n), orderNo: moved.order_no });
      if (!(await repo.deleteBatch(id))) throw AppError.conflict('batchDeleteRefused', { count: 1, orderNo: '' });
      parsed.delete(id);
      return null;
    },

    async downloadExcel(scope: Scope, id: number, lang: ApiLanguage) {
      const b = await loadScoped(scope, id);
      const job = batchOrdersJob(repo.ordersForExport(scope, { batchId: id }), lang);
      return new Download(`${b.batch_no}.xlsx`, XLSX, await buildWorkbookStream(db, job));
    },
    async downloadExcelByTime(scope: Scope, period: 'lastWeek' | 'lastMonth' | 'lastThreeMonths', lang: ApiLanguage) {
      const days = { lastWeek: 7, lastMonth: 30, lastThreeMonths: 91 }[period];
      const since = new Date(clock().getTime() - days * 86_400_000).toISOString();
      const job = batchOrdersJob(repo.ordersForExport(scope, { since }), lang);
      return new Download(`batches-${period}-${chinaDate(clock())}.xlsx`, XLSX, await buildWorkbookStream(db, job));
    },
  };
}
export type BatchesService = ReturnType<typeof createBatchesService>;
