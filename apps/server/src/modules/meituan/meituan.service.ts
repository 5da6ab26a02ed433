import { type ApiLanguage, ErrorCode, meituan as C, type ParsedRequest } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { Download, type UploadedFile } from '../../http/call-context.ts';
import { AppError } from '../../lib/errors.ts';
import { loadGeneratedFile, saveGeneratedFile, XLSX_MIME } from '../../lib/generated-files.ts';
import { maskPhone } from '../../lib/mask.ts';
import { translate } from '../../lib/messages.ts';
import { readSheetRows } from '../../lib/sheet-rows.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import type { Files } from '../../lib/files.ts';
import { buildWorkbookBuffer, buildWorkbookStream } from '../../lib/workbook-job.ts';
import { checkXlsxUpload } from '../../lib/xlsx-guard.ts';
import '../batches/index.ts';
import { meituanColumns, meituanJob } from './meituan.export.ts';
import { createMeituanRepository, type MeituanRecord } from './meituan.repository.ts';
import { fenText, readOrders, type RowError, rowsOfSheet, type SheetRow } from './meituan.sheet.ts';
import { documentNumber } from '../../lib/document-numbers.ts';

export const MEITUAN_ERRORS_KIND = 'meituanErrors';
const iso = (t: string | Date) => new Date(t).toISOString();

function present(r: MeituanRecord, masked: boolean): C.MeituanOrderRow {
  return {
    id: r.id,
    customerId: r.customer_id,
    customerCode: r.customer_code,
    systemNo: r.system_no,
    meituanNo: r.meituan_no,
    expressNo: r.express_no,
    orderRef: r.order_ref,
    receiverName: r.receiver_name,
    receiverPhone: masked ? maskPhone(r.receiver_phone) : r.receiver_phone,
    receiverAddress: r.receiver_address,
    status: Number(r.status) === 1 ? 1 : 0,
    operationLocation: r.operation_location as C.MeituanLocation,
    batchNumber: r.batch_number,
    itemCount: Number(r.item_count),
    totalPrice: fenText(Number(r.total_fen)),
    createdAt: iso(r.created_at),
    completedAt: r.completed_at ? iso(r.completed_at) : null,
    completedBy: r.completed_by_name ?? null,
  };
}

export interface MeituanDeps {
  db: Database;
  clock: () => Date;
  files: Files;
  uploadLimitBytes: number;
  /** Ordering uploads first check that no notice is waiting (spec §5), as the order import does. */
  assertNoticesClear: (actor: Actor) => Promise<void>;
}

/**
 * Meituan reservation orders: the upload (checked whole, written all or nothing under one
 * batch number), the list, detail, items, export, and the operators' completion.
 */
export function createMeituanService(deps: MeituanDeps) {
  const { db, clock, files } = deps;
  const repo = createMeituanRepository(db);

  async function load(scope: Scope, id: number) {
    const r = await repo.find(scope, id);
    if (!r) throw new AppError(ErrorCode.NOT_FOUND, 'meituanNotFound');
    return r;
  }

  async function errorWorkbook(actor: Actor, lang: ApiLanguage, rows: SheetRow[], errors: RowError[], at: string) {
    const reasons = new Map<number, string[]>();
    for (const e of errors) reasons.set(e.row, [...(reasons.get(e.row) ?? []), e.message]);
    const bad = rows.filter((r) => reasons.has(r.row));
    return saveGeneratedFile(db, files, {
      kind: MEITUAN_ERRORS_KIND,
      name: `${translate(lang, 'meituanErrorsName')}.xlsx`,
      mime: XLSX_MIME,
      customerId: actor.customerId,
      ownerUserId: actor.userId,
      data: await buildWorkbookBuffer(db, {
        sheet: {
          name: translate(lang, 'meituanErrorsSheet'),
          boldHeader: true,
          frozenHeader: true,
          sharedStrings: true,
          columns: [
            ...meituanColumns(lang).slice(0, C.MEITUAN_COLUMNS.length),
            { header: translate(lang, 'meituanRowColumn'), width: 8 },
            { header: translate(lang, 'meituanReasonColumn'), width: 60 },
          ],
        },
        rows: bad.map((r) => [
          ...C.MEITUAN_COLUMNS.map((c) => r.cells[c.key] || null),
          r.row,
          reasons.get(r.row)!.join('\n'),
        ]),
      }),
      at,
    });
  }

  return {
    async page(scope: Scope, f: C.MeituanListRequest) {
      const { total, rows } = await repo.page(scope, f);
      return { total, list: rows.map((r) => present(r, true)) };
    },

    info: async (scope: Scope, id: number) => present(await load(scope, id), false),

    async items(scope: Scope, id: number): Promise<C.MeituanItem[]> {
      const o = await load(scope, id);
      return (await repo.items(o.id)).map((i) => ({
        id: i.id,
        barcode: i.barcode,
        name: i.name,
        specs: i.specs,
        price: fenText(Number(i.price_fen)),
        count: Number(i.count),
      }));
    },

    async template(lang: ApiLanguage) {
      const data = await buildWorkbookBuffer(db, {
        sheet: {
          name: lang === 'en' ? 'Meituan orders' : '美团预约单',
          boldHeader: true,
          frozenHeader: true,
          columns: meituanColumns(lang).slice(0, C.MEITUAN_COLUMNS.length),
        },
        rows: [],
      });
      const name = lang === 'en' ? 'meituan-reservation-template' : '美团预约单模板';
      return new Download(`${name}.xlsx`, XLSX_MIME, data);
    },

    async create(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      input: ParsedRequest<typeof C.meituanCreate>,
      upload: UploadedFile | undefined,
    ) {
      await deps.assertNoticesClear(actor);
      const customerId = customerFor(actor, scope, input.customerId);
      const file = await checkXlsxUpload(upload, deps.uploadLimitBytes);
      const read = await readSheetRows(file.data, C.MEITUAN_MAX_ROWS + 1);
      if (read.type === 'problem') throw AppError.field('file', translate(lang, read.key, read.params));
      const rows = rowsOfSheet(read.rows);
      if (!rows.length) throw AppError.field('file', 'meituanNoRows');
      if (rows.length > C.MEITUAN_MAX_ROWS)
        throw AppError.field('file', 'meituanTooManyRows', { max: C.MEITUAN_MAX_ROWS });
      const { orders, errors } = readOrders(rows, lang);
      const uploaded = new Set(
        await repo.existing(
          customerId,
          orders.map((o) => o.systemNo),
        ),
      );
      for (const o of orders) {
        if (uploaded.has(o.systemNo)) {
          for (const row of o.rows)
            errors.push({
              row,
              field: 'systemNo',
              message: translate(lang, 'meituanSystemNoExists', { systemNo: o.systemNo }),
            });
        }
      }
      errors.sort((a, b) => a.row - b.row);
      const at = clock().toISOString();
      const summary = {
        orderCount: orders.length,
        itemCount: orders.reduce((s, o) => s + o.items.length, 0),
        orders: orders.slice(0, 50).map((o) => ({
          systemNo: o.systemNo,
          meituanNo: o.meituanNo,
          expressNo: o.expressNo,
          receiverName: o.receiverName,
          itemCount: o.items.length,
        })),
        errors: errors.slice(0, C.MEITUAN_ERRORS_SHOWN),
        errorCount: errors.length,
      };
      if (errors.length) {
        return {
          ...summary,
          committed: false,
          batchNumber: null,
          errorFileId: await errorWorkbook(actor, lang, rows, errors, at),
        };
      }
      if (input.preview) return { ...summary, committed: false, batchNumber: null, errorFileId: null };
      const batchNumber = await documentNumber(db, 'MT', clock());
      // All or nothing: a system number uploaded meanwhile by a parallel upload fails the
      // unique index and rolls the whole upload back (a 422 on systemNo).
      await db
        .transaction()
        .execute((trx) =>
          repo.insertAll(
            trx,
            { customerId, location: input.operationLocation, batchNumber, by: actor.userId, at },
            orders,
          ),
        );
      return { ...summary, committed: true, batchNumber, errorFileId: null };
    },

    async errorFile(actor: Actor, fileId: number) {
      const f = await loadGeneratedFile(db, files, { id: fileId, kind: MEITUAN_ERRORS_KIND, userId: actor.userId });
      if (!f) throw new AppError(ErrorCode.NOT_FOUND, 'notFound');
      return new Download(f.name, f.mime, f.body);
    },

    async download(scope: Scope, f: C.MeituanFilters, lang: ApiLanguage) {
      const job = meituanJob(repo.forExport(scope, f), lang);
      const name = lang === 'en' ? 'meituan-reservation-orders' : '美团预约单';
      return new Download(
        `${name}-${clock().toISOString().slice(0, 10)}.xlsx`,
        XLSX_MIME,
        await buildWorkbookStream(db, job),
      );
    },

    locations: (lang: ApiLanguage) =>
      C.meituanLocation.options.map((value) => ({
        value,
        label: lang === 'en' ? C.MEITUAN_LOCATIONS[value].en : C.MEITUAN_LOCATIONS[value].zh,
      })),

    batchNumbers: async (scope: Scope) => (await repo.batchNumbers(scope)).map((r) => r.batch_number),

    async complete(actor: Actor, scope: Scope, ids: number[]) {
      const unique = [...new Set(ids)];
      const done = await repo.complete(scope, unique, actor.userId, clock().toISOString());
      const found = await repo.countIn(scope, unique);
      if (found === 0) throw new AppError(ErrorCode.NOT_FOUND, 'meituanNotFound');
      return { completed: done.length, alreadyCompleted: found - done.length };
    },
  };
}
export type MeituanService = ReturnType<typeof createMeituanService>;
