import { randomUUID } from 'node:crypto';
import { type ApiLanguage, ErrorCode, exportDeclarations as C } from '@console/contract';
import { fileTypeFromBuffer } from 'file-type';
import type { Database } from '../../db/database.ts';
import { Download, type UploadedFile } from '../../http/call-context.ts';
import { audit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { loadGeneratedFile, saveGeneratedFile, XLSX_MIME } from '../../lib/generated-files.ts';
import { translate } from '../../lib/messages.ts';
import { type Actor, type Scope } from '../../lib/scope.ts';
import { readSheetRows } from '../../lib/sheet-rows.ts';
import type { Files } from '../../lib/files.ts';
import { buildWorkbookBuffer } from '../../lib/workbook-job.ts';
import { checkXlsxUpload } from '../batches/xlsx-guard.ts';
import '../batches/batches.messages.ts';
import type { PermitMailer } from './export-declarations.mailer.ts';
import './export-declarations.messages.ts';
import { createExportDeclarationsRepository, type DeclarationRecord } from './export-declarations.repository.ts';
import {
  declarationRowsOfSheet,
  declarationsJob,
  declareAtCustomsJob,
  type Layout,
} from './export-declarations.sheets.ts';

const ERRORS_KIND = 'export-declaration-errors';
const PERMIT_KIND = 'export-permit';
const MAX_AMOUNT = 2_000_000_000;
const iso = (t: string | Date | null) => (t === null ? null : new Date(t).toISOString());

export function present(r: DeclarationRecord): C.ExportDeclarationRow {
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
            emailError: r.permit_email_error,
          },
    orderCreatedAt: iso(r.order_created_at)!,
    updatedAt: iso(r.updated_at),
  };
}

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
  /** Where a failed mail's cause goes (the app's logger), with the id the user is shown. */
  logError?: (err: unknown, context: { orderId: number; errorId: string }) => void;
}) {
  const { db, clock, files, mailer } = deps;
  const repo = createExportDeclarationsRepository(db);
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
    async page(scope: Scope, f: C.ExportDeclarationListRequest) {
      const { total, rows } = await repo.page(scope, f);
      return { total, list: rows.map(present), mailConfigured: mailer !== null };
    },

    async update(
      actor: Actor,
      scope: Scope,
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
      return present(await loadScoped(scope, input.orderId));
    },

    /** An upload: every row checked; written only when asked and every row is good (one transaction). */
    async updateBatch(
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
      if (commit) {
        await db.transaction().execute((trx) =>
          repo.save(
            trx,
            checked.map((c) => ({ orderId: c.order!.id, customerId: c.order!.customer_id, ...c.values! })),
            actor.userId,
            at,
          ),
        );
      }
      // Bad rows first: they are what the user came to see.
      const shown = [...bad, ...checked.filter((c) => !c.error)].slice(0, C.DECLARATION_PREVIEW_ROWS);
      return {
        total: checked.length,
        valid: checked.length - bad.length,
        committed: commit,
        rows: shown.map((c) => ({
          row: c.row,
          key: c.key,
          productName: c.productName,
          amountJpy: c.amountJpy,
          error: c.error,
        })),
        errorFileId,
      };
    },

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
      await db.transaction().execute(async (trx) => {
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
        if (!(await repo.setPermit(trx, orderId, fileId, actor.userId, at))) throw AppError.conflict('declNotDeclared');
      });
      // Mail after the commit: a slow or failing mail server never loses the permit.
      let mail: 'sent' | 'notConfigured' | 'noAddress' | 'failed';
      if (!mailer) mail = 'notConfigured';
      else if (!r.receive_email) mail = 'noAddress';
      else {
        try {
          await mailer.send({
            to: r.receive_email,
            subject: translate(lang, 'declMailSubject', { orderNo: r.order_no }),
            text: translate(lang, 'declMailBody', { orderNo: r.order_no, waybillNo: r.waybill_no ?? '-' }),
            filename: name,
            pdf: upload.data,
          });
          await repo.setMailResult(orderId, now(), null);
          mail = 'sent';
        } catch (e) {
          // The mail server's text (its address, the socket error) is for the log; the user reads
          // the catalogue's message with an id to quote.
          const errorId = randomUUID();
          deps.logError?.(e, { orderId, errorId });
          await repo.setMailResult(orderId, null, translate(lang, 'declMailFailed', { errorId }));
          mail = 'failed';
        }
      }
      return { declaration: present(await loadScoped(scope, orderId)), mail };
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
