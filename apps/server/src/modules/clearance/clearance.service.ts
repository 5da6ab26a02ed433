import { type ApiLanguage, type clearance, ErrorCode } from '@console/contract';
import { excel } from '../../lib/exceljs.ts';
import type { Database } from '../../db/database.ts';
import { refusal, transition } from '../../domain/order-life.ts';
import { AppError } from '../../lib/errors.ts';
import { loadGeneratedFile, saveGeneratedFile, XLSX_MIME } from '../../lib/generated-files.ts';
import { translate } from '../../lib/messages.ts';
import { storeReasons } from '../../lib/reasons.ts';
import type { Actor } from '../../lib/scope.ts';
import { readSheetRows } from '../../lib/sheet-rows.ts';
import type { Files } from '../../lib/files.ts';
import { buildWorkbookBuffer } from '../../lib/workbook-job.ts';
import { checkXlsxUpload } from '../../lib/xlsx-guard.ts';
import { CLEARANCE_REFUSALS, clearanceReasonKey, type ClearanceRefusal, isClearanceRefusal } from '../orders/index.ts';
import { createClearanceRepository } from './clearance.repository.ts';

/** One result as the company gives it (a sheet row or a webhook entry), before it is checked. */
export interface ResultInput {
  waybillNo: string;
  result: string;
  reasonCode: string | null;
  remark: string | null;
}
/** A result that can be applied. */
interface Planned {
  orderId: number;
  result: clearance.ClearanceResult;
  reason: ClearanceRefusal | null;
  remark: string | null;
}

const OPERATOR_ROLES = new Set(['operator', 'admin-none']);
const MAX_ROWS = 5000;
const MAX_REMARK = 500;
const RESULT_WORDS: Record<string, clearance.ClearanceResult> = {
  released: 'released',
  release: 'released',
  放行: 'released',
  refused: 'refused',
  refuse: 'refused',
  退单: 'refused',
  退回: 'refused',
};
const norm = (s: string) => s.trim().toLowerCase();
/** A header as compared: width-folded (NFKC), lower case, without spaces. */
const headerKey = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, '');
/** Header beginnings in either language (the template's, and the short forms a company writes). */
const HEADERS = {
  waybillNo: ['waybill', '运单号'],
  result: ['result', '结果', '清关结果'],
  reasonCode: ['reasoncode', '原因代码', '退单原因代码'],
  remark: ['remark', '备注'],
} as const;
type Column = keyof typeof HEADERS;

export interface ClearanceDeps {
  db: Database;
  clock: () => Date;
  files: Files;
  uploadLimitBytes: number;
}

/**
 * Clearance results: a company's sheet (operators) or its webhook call, applied to its shipped
 * orders through the order's life (release, or flagError with the refusal's reason), all or none.
 */
export function createClearanceService({ db, clock, files, uploadLimitBytes }: ClearanceDeps) {
  const repo = createClearanceRepository(db);
  const codes = Object.keys(CLEARANCE_REFUSALS).join(', ');

  async function assertCompany(code: string) {
    if (!(await repo.companyExists(code))) throw AppError.field('company', 'clearanceUnknownCompany');
  }

  /**
   * Checks every result against the orders (found by waybill number): the rows that cannot be
   * applied, each with its reason in `lang`, or the plan when there are none.
   */
  async function plan(
    lang: ApiLanguage,
    company: string,
    rows: readonly ResultInput[],
  ): Promise<{ problems: Map<number, string>; planned: Planned[] }> {
    const t = (key: string, params?: Record<string, string | number>) => translate(lang, key, params);
    const problems = new Map<number, string>();
    const found = await repo.ordersByWaybill([...new Set(rows.map((r) => r.waybillNo.trim()).filter(Boolean))]);
    const byWaybill = new Map(found.map((o) => [o.waybill_no, o]));
    const firstAt = new Map<string, number>();
    const planned: Planned[] = [];
    rows.forEach((r, i) => {
      const waybill = r.waybillNo.trim();
      if (!waybill) return void problems.set(i, t('clearanceRowNoWaybill'));
      const seen = firstAt.get(waybill);
      if (seen !== undefined) return void problems.set(i, t('clearanceRowDuplicate', { row: seen + 2 }));
      firstAt.set(waybill, i);
      const result = RESULT_WORDS[norm(r.result)];
      if (!result) return void problems.set(i, t('clearanceRowBadResult'));
      const code = r.reasonCode?.trim().toUpperCase() || null;
      if (result === 'refused' && !code) return void problems.set(i, t('clearanceRowNoReason', { codes }));
      if (result === 'refused' && code && !isClearanceRefusal(code))
        return void problems.set(i, t('clearanceRowUnknownReason', { code, codes }));
      const remark = r.remark?.trim() || null;
      if (remark && remark.length > MAX_REMARK) return void problems.set(i, t('clearanceRowRemarkTooLong'));
      const o = byWaybill.get(waybill);
      if (!o) return void problems.set(i, t('clearanceRowNoOrder'));
      if (o.clearance_company_code !== company) return void problems.set(i, t('clearanceRowOtherCompany'));
      // A result comes for a shipped order: released or refused, it is the same question.
      const key = refusal(o, 'release');
      if (key) return void problems.set(i, t(key, { orderNo: o.order_no }));
      planned.push({
        orderId: o.id,
        result,
        reason: result === 'refused' ? (code as ClearanceRefusal) : null,
        remark,
      });
    });
    return { problems, planned };
  }

  /** Applies a plan in one transaction: every order moves or none (a race is a 409). */
  async function apply(company: string, planned: readonly Planned[], by: number | null) {
    const at = clock().toISOString();
    const released = planned.filter((p) => p.result === 'released');
    const refused = planned.filter((p) => p.result === 'refused');
    await db.transaction().execute(async (trx) => {
      const check = (r: Awaited<ReturnType<typeof transition>>) => {
        const first = r.refused[0];
        if (first) throw AppError.conflict(first.key, { orderNo: first.orderNo ?? '' });
      };
      // One release per remark, one refusal per reason and remark: the event carries the remark.
      const groups = new Map<string, Planned[]>();
      for (const p of released) groups.set(`r|${p.remark ?? ''}`, [...(groups.get(`r|${p.remark ?? ''}`) ?? []), p]);
      for (const p of refused) {
        const k = `f|${p.reason}|${p.remark ?? ''}`;
        groups.set(k, [...(groups.get(k) ?? []), p]);
      }
      for (const list of groups.values()) {
        const p = list[0]!;
        const ids = list.map((x) => x.orderId);
        if (p.result === 'released') {
          check(await transition(trx, 'release', ids, { at, by, location: company, note: p.remark }));
        } else {
          check(
            await transition(trx, 'flagError', ids, {
              at,
              by,
              location: company,
              // The event says the company's code and remark; the order keeps the reason as a code.
              note: p.remark ? `${p.reason}: ${p.remark}` : p.reason,
              reason: storeReasons([{ code: clearanceReasonKey(p.reason!) }]),
              clearance: true,
            }),
          );
        }
      }
    });
    return { released: released.length, refused: refused.length };
  }

  /** The sheet's header → columns (either language); 422 on a sheet without waybill or result. */
  function readSheet(lang: ApiLanguage, rows: { row: number; cells: string[] }[]) {
    const [head, ...body] = rows;
    if (!head || !body.length) throw AppError.field('file', 'clearanceSheetEmpty');
    const at = new Map<Column, number>();
    head.cells.forEach((text, i) => {
      const h = headerKey(text);
      for (const c of Object.keys(HEADERS) as Column[])
        if (!at.has(c) && (HEADERS[c] as readonly string[]).some((k) => h.startsWith(k))) at.set(c, i);
    });
    if (!at.has('waybillNo')) throw AppError.field('file', translate(lang, 'clearanceNoWaybillColumn'));
    if (!at.has('result')) throw AppError.field('file', translate(lang, 'clearanceNoResultColumn'));
    // Rows left blank (a template with formatting further down) are not results.
    const filled = body.filter((r) => r.cells.some((c) => c?.trim()));
    if (!filled.length) throw AppError.field('file', 'clearanceSheetEmpty');
    if (filled.length > MAX_ROWS)
      throw AppError.field('file', translate(lang, 'clearanceTooManyRows', { max: MAX_ROWS }));
    const cell = (r: { cells: string[] }, c: Column) => {
      const i = at.get(c);
      return i === undefined ? '' : (r.cells[i] ?? '');
    };
    return {
      head: head.cells,
      body: filled,
      inputs: filled.map((r) => ({
        waybillNo: cell(r, 'waybillNo'),
        result: cell(r, 'result'),
        reasonCode: cell(r, 'reasonCode') || null,
        remark: cell(r, 'remark') || null,
      })),
    };
  }

  /** The refused rows as uploaded, with the reason and the row's number (spec §8 pattern). */
  async function errorWorkbook(
    actor: Actor,
    lang: ApiLanguage,
    head: string[],
    rows: { row: number; cells: string[] }[],
    problems: Map<number, string>,
  ) {
    const picked = [...problems.entries()].sort((a, b) => a[0] - b[0]);
    const width = Math.max(head.length, ...picked.map(([i]) => rows[i]!.cells.length));
    const pad = (cells: string[]) => Array.from({ length: width }, (_, i) => cells[i] ?? '');
    const data = await buildWorkbookBuffer(db, {
      sheet: {
        name: translate(lang, 'clearanceErrorsSheet'),
        boldHeader: true,
        frozenHeader: true,
        sharedStrings: true,
        columns: [
          ...pad(head).map((header) => ({ header, width: 20 })),
          { header: translate(lang, 'clearanceErrorColumn'), width: 50 },
          { header: translate(lang, 'clearanceRowColumn'), width: 8 },
        ],
      },
      rows: picked.map(([i, why]) => [...pad(rows[i]!.cells), why, rows[i]!.row]),
    });
    return saveGeneratedFile(db, files, {
      kind: 'clearanceErrors',
      name: `${translate(lang, 'clearanceErrorsName')}.xlsx`,
      mime: XLSX_MIME,
      customerId: null,
      ownerUserId: actor.userId,
      data,
      at: clock().toISOString(),
    });
  }

  return {
    /** Operators: a result sheet for `company`, all rows applied or none (then the error workbook). */
    async upload(
      actor: Actor,
      lang: ApiLanguage,
      company: string,
      upload: { filename: string; data: Buffer } | undefined,
    ): Promise<clearance.ClearanceUploadResult> {
      if (!OPERATOR_ROLES.has(actor.role)) throw AppError.forbidden('operatorsOnly');
      await assertCompany(company);
      const file = await checkXlsxUpload(upload, uploadLimitBytes);
      const read = await readSheetRows(file.data, MAX_ROWS + 1);
      if (read.type === 'problem') throw AppError.field('file', translate(lang, read.key, read.params));
      const { head, body, inputs } = readSheet(lang, read.rows);
      const { problems, planned } = await plan(lang, company, inputs);
      if (problems.size) {
        const errorFileId = await errorWorkbook(actor, lang, head, body, problems);
        return { applied: false, rows: inputs.length, released: 0, refused: 0, errorRows: problems.size, errorFileId };
      }
      const done = await apply(company, planned, actor.userId);
      return { applied: true, rows: inputs.length, ...done, errorRows: 0, errorFileId: null };
    },

    /** The webhook's results (already authenticated by signature): all or none, else 422 per result. */
    async fromWebhook(lang: ApiLanguage, company: string, body: clearance.ClearanceWebhookBody) {
      const inputs = body.results.map((r) => ({
        waybillNo: r.waybillNo,
        result: r.result,
        reasonCode: r.reasonCode ?? null,
        remark: r.remark ?? null,
      }));
      const { problems, planned } = await plan(lang, company, inputs);
      if (problems.size) {
        throw AppError.validation(Object.fromEntries([...problems].map(([i, why]) => [`results.${i}`, [why]])));
      }
      return apply(company, planned, null);
    },

    async errorFile(actor: Actor, fileId: number) {
      const f = await loadGeneratedFile(db, files, { id: fileId, kind: 'clearanceErrors', userId: actor.userId });
      if (!f) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      return f;
    },

    /** The company's result sheet: the four columns in the caller's language, and its reason codes. */
    async template(lang: ApiLanguage, company: string) {
      await assertCompany(company);
      const wb = new (await excel()).Workbook();
      const ws = wb.addWorksheet(translate(lang, 'clearanceTemplateSheet'), {
        views: [{ state: 'frozen', ySplit: 1 }],
      });
      ws.columns = [
        { header: translate(lang, 'clearanceHeaderWaybill'), width: 24 },
        { header: translate(lang, 'clearanceHeaderResult'), width: 26 },
        { header: translate(lang, 'clearanceHeaderReason'), width: 14 },
        { header: translate(lang, 'clearanceHeaderRemark'), width: 40 },
      ];
      ws.getRow(1).font = { bold: true };
      ws.getColumn(1).numFmt = '@';
      // A list of the two results, so a typo is caught while filling the sheet.
      const results = lang === 'en' ? '"released,refused"' : '"放行,退单"';
      for (let r = 2; r <= 1001; r++) {
        ws.getCell(r, 2).dataValidation = { type: 'list', allowBlank: true, formulae: [results] };
        ws.getCell(r, 3).dataValidation = {
          type: 'list',
          allowBlank: true,
          formulae: [`"${Object.keys(CLEARANCE_REFUSALS).join(',')}"`],
        };
      }
      const reasons = wb.addWorksheet(translate(lang, 'clearanceReasonsSheet'));
      reasons.columns = [
        { header: translate(lang, 'clearanceHeaderCode'), width: 10 },
        { header: translate(lang, 'clearanceHeaderMeaning'), width: 70 },
      ];
      reasons.getRow(1).font = { bold: true };
      for (const code of Object.keys(CLEARANCE_REFUSALS) as ClearanceRefusal[])
        reasons.addRow([code, translate(lang, clearanceReasonKey(code))]);
      return {
        filename: `${translate(lang, 'clearanceTemplateName', { company })}.xlsx`,
        body: Buffer.from(await wb.xlsx.writeBuffer()),
      };
    },

    repo,
  };
}
export type ClearanceService = ReturnType<typeof createClearanceService>;
