import { type ApiLanguage, ErrorCode, exportDeclarations as C } from '@console/contract';
import { fileTypeFromBuffer } from 'file-type';
import type { Database } from '../../db/database.ts';
import { Download, type UploadedFile } from '../../http/call-context.ts';
import { audit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { loadGeneratedFile, XLSX_MIME } from '../../lib/generated-files.ts';
import { translate } from '../../lib/messages.ts';
import { type Actor, type Scope } from '../../lib/scope.ts';
import type { Files } from '../../lib/files.ts';
import type { JobQueue } from '../../lib/jobs.ts';
import { buildWorkbookBuffer } from '../../lib/workbook-job.ts';
import { checkPair, createDeclarationBatches, ERRORS_KIND } from './export-declarations.batch.ts';
import { createPermitMails } from './export-declarations.permit-mail.ts';
import '../batches/index.ts';
import type { PermitMailer } from './export-declarations.mailer.ts';
import { createExportDeclarationsRepository, type DeclarationRecord } from './export-declarations.repository.ts';
import { declarationsJob, declareAtCustomsJob, type Layout } from './export-declarations.sheets.ts';

const PERMIT_KIND = 'export-permit';
const iso = (t: string | Date | null) => (t === null ? null : new Date(t).toISOString());

/**
 * The permit mail's failure: a message key since the mail is a job (issue 27), worded here for
 * the API and by the console from the key. Anything else stored before (the mail server's own
 * exception text, or a message worded then) is never shown: it reads as a failed mail.
 */
function mailError(lang: ApiLanguage, r: DeclarationRecord) {
  const stored = r.permit_email_error;
  if (stored === null) return { emailError: null, emailErrorKey: null, emailErrorId: null };
  const known = (C.PERMIT_MAIL_ERRORS as readonly string[]).includes(stored);
  const key: C.PermitMailError = known ? (stored as C.PermitMailError) : 'declMailFailed';
  const id = known ? r.permit_email_error_id : null;
  return { emailError: translate(lang, key, { errorId: id ?? '-' }), emailErrorKey: key, emailErrorId: id };
}

export function present(lang: ApiLanguage, r: DeclarationRecord): C.ExportDeclarationRow {
  return {
    orderId: r.order_id,
    orderNo: r.order_no,
    waybillNo: r.waybill_no,
    customerId: r.customer_id,
    customerCode: r.customer_code,
    batchNo: r.batch_no,
    goodsJpy: String(r.total_amount),
    required: r.currency === 'JPY' && Number(r.total_amount) > C.DECLARATION_THRESHOLD_JPY,
    declared: r.amount_jpy !== null,
    productName: r.product_name,
    amountJpy: r.amount_jpy === null ? null : String(r.amount_jpy),
    exporter:
      r.name_ja === null
        ? null
        : {
            nameJa: r.name_ja,
            nameEn: r.name_en ?? '',
            corporateNumber: r.corporate_number ?? '',
            receiveEmail: r.receive_email ?? '',
          },
    permit:
      r.permit_file_id === null
        ? null
        : {
            uploadedAt: iso(r.permit_uploaded_at)!,
            emailedAt: iso(r.permit_emailed_at),
            ...mailError(lang, r),
          },
    orderCreatedAt: iso(r.order_created_at)!,
    updatedAt: iso(r.updated_at),
  };
}

/**
 * Japanese export declarations: the list, the pair rule for one order or a whole workbook (all
 * or nothing), the workbooks, and the export permit (operators upload it, the order's owner,
 * its agent and operators download it; it is e-mailed to the nomination's receive address).
 */
export function createExportDeclarationsService(deps: {
  db: Database;
  clock: () => Date;
  files: Files;
  uploadLimitBytes: number;
  mailer: PermitMailer | null;
  /** How often and how soon a mail is tried again after a transient SMTP failure (SMTP_RETRIES, SMTP_RETRY_SECONDS). */
  mailRetry?: { limit: number; delaySeconds: number };
  jobs: JobQueue;
  /** Where a failed mail's cause goes (the app's logger), with the id the user is shown. */
  logError?: (err: unknown, context: { orderId?: number; runId?: number; errorId?: string }) => void;
}) {
  const { db, clock, files, mailer } = deps;
  const repo = createExportDeclarationsRepository(db);
  const batch = createDeclarationBatches({ ...deps, repo });
  const permitMails = createPermitMails({ ...deps, repo });
  const now = () => clock().toISOString();

  async function loadScoped(scope: Scope, orderId: number) {
    const r = await repo.find(scope, orderId);
    if (!r) throw new AppError(ErrorCode.NOT_FOUND, 'declOrderNotFound');
    return r;
  }

  async function workbook(name: string, data: Buffer) {
    return new Download(`${name}-${now().slice(0, 10)}.xlsx`, XLSX_MIME, data);
  }

  return {
    async page(scope: Scope, lang: ApiLanguage, f: C.ExportDeclarationListRequest) {
      const { total, rows } = await repo.page(scope, f);
      return { total, list: rows.map((r) => present(lang, r)), mailConfigured: mailer !== null };
    },

    async update(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      input: { orderId: number; productName: string; amountJpy: string | number },
    ) {
      const r = await loadScoped(scope, input.orderId);
      if (r.currency !== 'JPY') throw AppError.field('orderId', 'declNotJapan');
      const checked = checkPair(input.productName, input.amountJpy);
      if ('problem' in checked)
        throw AppError.validation(Object.fromEntries(checked.problem.fields.map((f) => [f, [checked.problem.key]])));
      await db
        .transaction()
        .execute((trx) =>
          repo.save(trx, [{ orderId: r.order_id, customerId: r.customer_id, ...checked }], actor.userId, now()),
        );
      return present(lang, await loadScoped(scope, input.orderId));
    },

    updateBatch: batch.updateBatch,
    batchRun: batch.batchRun,

    async errorFile(actor: Actor, fileId: number) {
      const f = await loadGeneratedFile(db, files, { id: fileId, kind: ERRORS_KIND, userId: actor.userId });
      if (!f) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      return new Download(f.name, f.mime, f.body);
    },

    async download(scope: Scope, f: C.ExportDeclarationFilters, layout: Layout, lang: ApiLanguage) {
      const rows = await repo.all(scope, f);
      const name = lang === 'en' ? 'export-declarations' : '出口申报';
      return workbook(
        layout === 'orderNo' ? name : `${name}-2`,
        await buildWorkbookBuffer(db, declarationsJob(rows, layout, lang)),
      );
    },

    async downloadDeclareAtCustoms(scope: Scope, f: C.ExportDeclarationFilters, lang: ApiLanguage) {
      const rows = await repo.all(scope, { ...f, declared: 'yes' });
      const job = await declareAtCustomsJob(repo, rows, lang);
      return workbook(lang === 'en' ? 'declare-at-customs' : '报关数据', await buildWorkbookBuffer(db, job));
    },

    /** Operators: the permit PDF is checked by its content, stored, linked, then e-mailed. */
    async uploadPermit(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      orderId: number,
      upload: UploadedFile | undefined,
    ) {
      if (!upload || !upload.data.length) throw AppError.field('file', 'declNoFile');
      if (upload.data.length > deps.uploadLimitBytes) throw AppError.fileTooLarge(deps.uploadLimitBytes);
      const type = await fileTypeFromBuffer(upload.data);
      if (type?.mime !== 'application/pdf') throw AppError.field('file', 'declNotPdf');
      const r = await loadScoped(scope, orderId);
      if (r.amount_jpy === null) throw AppError.conflict('declNotDeclared');
      const at = now();
      const name = `permit-${r.order_no}.pdf`;
      const stored = await files.write(upload.data, name);
      // The e-mail is a job enqueued with the permit's link: a slow or failing mail server neither
      // holds this call nor loses the permit.
      const mail: 'queued' | 'notConfigured' | 'noAddress' = !mailer
        ? 'notConfigured'
        : !r.receive_email
          ? 'noAddress'
          : 'queued';
      // A transaction that fails (the declaration cleared meanwhile) takes the permit's bytes with it.
      await files.recording(stored, () =>
        db.transaction().execute(async (trx) => {
          const fileId = await files.record(
            stored,
            {
              customer_id: r.customer_id,
              owner_user_id: actor.userId,
              kind: PERMIT_KIND,
              name,
              mime: 'application/pdf',
              created_at: at,
            },
            trx,
          );
          // The declaration may have been cleared since it was read: then nothing is linked.
          // No address: the permit says so (and what to do) where its mail status is read.
          const mailError = mail === 'noAddress' ? 'declMailNoAddress' : null;
          if (!(await repo.setPermit(trx, orderId, fileId, actor.userId, at, mailError)))
            throw AppError.conflict('declNotDeclared');
          if (mail === 'queued') await permitMails.enqueue(trx, { orderId, fileId, lang }, r.customer_id);
        }),
      );
      return { declaration: present(lang, await loadScoped(scope, orderId)), mail };
    },

    /** The owner, its agent and operators (the scope); anyone else is told it is not found. */
    /** The permit PDF of an order in scope; each read is audited (a permit names the exporter and the goods). */
    async permitPdf(actor: Actor, scope: Scope, orderId: number, ip: string) {
      const r = await loadScoped(scope, orderId);
      if (r.permit_file_id === null) throw new AppError(ErrorCode.NOT_FOUND, 'declNoPermit');
      const f = await repo.permitFile(r.permit_file_id);
      if (!f) throw new AppError(ErrorCode.NOT_FOUND, 'declNoPermit');
      await audit(db, { actor, ip }, { action: 'permit.read', target: `order:${orderId}`, detail: f.name }, clock());
      return new Download(f.name, 'application/pdf', (await files.open(f.storage_key)).body);
    },
  };
}
export type ExportDeclarationsService = ReturnType<typeof createExportDeclarationsService>;
