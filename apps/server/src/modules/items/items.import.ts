import { type ApiLanguage, contractErrorMap, ErrorCode, items as C } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { Download } from '../../http/call-context.ts';
import { AppError } from '../../lib/errors.ts';
import type { JobQueue } from '../../lib/jobs.ts';
import { storedFileBody } from '../../lib/generated-files.ts';
import { translate } from '../../lib/messages.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import { readSheetRows } from '../../lib/sheet-rows.ts';
import type { Files } from '../../lib/files.ts';
import { isStorageFull } from '../../lib/storage.ts';
import { buildWorkbookBuffer } from '../../lib/workbook-job.ts';
import { columnLetter, type WorkbookRow } from '../../lib/workbook-writer.ts';
// The upload refusals (fileNotXlsx, fileZipBomb…) and the sheet reader's (workbookZipBomb,
// sheetTooManyRows…) are worded once, by the order imports that use them first.
import '../batches/index.ts';
import { checkXlsxUpload } from '../../lib/xlsx-guard.ts';
import '../orders/index.ts';
import {
  buildItemTemplate,
  columnOfHeader,
  headerOf,
  IMPORT_COLUMNS,
  type ImportColumn,
  type ImportField,
  REASON_COLUMN,
  type RefEntry,
  type RefList,
  type RefLists,
  ROW_COLUMN,
} from './items.import-template.ts';
import { createItemImportCommits } from './items.import-commit.ts';
import { createItemImportRepository, type ItemImportRecord } from './items.import.repository.ts';
import type { ItemsService, NewItemValues } from './items.service.ts';
import { nextTurn } from '../../db/next-turn.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Problems kept for the page; the error workbook holds every failed row. */
const KEPT_ERRORS = 200;
/** The period of the preview-expiry job (once per period across instances). */
const SWEEP_MS = 30_000;

type Text = { en: string; 'zh-CN': string };
/** A problem of a row as stored: both languages, so each reader gets its own. */
type StoredIssue = { row: number; col: ImportField | null; msg: Text };
const both = (key: string, params?: Record<string, string | number>): Text => ({
  en: translate('en', key, params),
  'zh-CN': translate('zh-CN', key, params),
});
const zodMaps = { en: contractErrorMap('en'), 'zh-CN': contractErrorMap('zh-CN') };

export interface ItemImportDeps {
  db: Database;
  clock: () => Date;
  files: Files;
  items: ItemsService;
  uploadLimitBytes: number;
  previewTtlMinutes: number;
  /** The queue commits run on (lib/jobs.ts): once, on one instance, taken over if that one dies. */
  jobs: JobQueue;
  /** Where a commit's unexpected failure goes (the app's logger); the user reads "Server error". */
  logError?: (err: unknown, importId: number) => void;
}

/**
 * Item import (docs/decisions.md "Item import"): template → upload (rows read off the event loop
 * by the order imports' guarded reader, every row checked with item/create's own rules, the failed
 * rows written to an error workbook by a workbook worker, the valid ones kept in a stored file)
 * → confirm (one transaction, inserts in chunks: every valid row becomes a pending item, or none)
 * with progress. Unconfirmed previews expire like order batch previews.
 */
export function createItemImportService(deps: ItemImportDeps) {
  const { db, clock, files, items } = deps;
  const repo = createItemImportRepository(db);
  const now = () => clock().toISOString();
  /** SQLite: the progress of the commits this process runs (see items.import-commit.ts). */
  const local = new Map<number, number>();
  const removeFile = (key: string | null) => (key ? files.discard(key).catch(() => {}) : Promise.resolve());

  async function refLists(): Promise<RefLists> {
    const ref = await items.reference();
    const named = (x: { id: number; name_zh: string; name_en: string }) => ({
      code: String(x.id),
      zh: x.name_zh,
      en: x.name_en,
    });
    return {
      part: ref.parts.map(named),
      brand: ref.brands.map(named),
      category: ref.categories.map(named),
      exportCategory: ref.exportCategories.map((x) => ({ code: x.code, zh: x.name_zh, en: x.name_en })),
      tax: ref.taxes.map((x) => ({ code: x.code, zh: x.name_zh, en: x.name_en })),
    };
  }

  const UNKNOWN: Record<RefList, string> = {
    part: 'itemPartUnknown',
    brand: 'itemBrandUnknown',
    category: 'itemCategoryUnknown',
    exportCategory: 'itemExportCategoryUnknown',
    tax: 'itemTaxUnknown',
  };

  /** A drop-down cell: "code name", the code alone, or a name typed alone (either language). */
  function resolveRef(list: RefEntry[], text: string): string | undefined {
    const code = text.split(/\s+/)[0]!;
    if (list.some((e) => e.code === code)) return code;
    const t = text.toLowerCase();
    return list.find((e) => e.zh.toLowerCase() === t || e.en.toLowerCase() === t)?.code;
  }

  /** A sheet row as item/create's input, with the problems the cells themselves have. */
  function rowInput(cells: Map<ImportField, string>, lists: RefLists) {
    const input: Record<string, unknown> = {};
    const problems: Record<string, string[]> = {};
    for (const c of IMPORT_COLUMNS) {
      const text = cells.get(c.key) ?? '';
      if (!text) continue;
      if (c.list) {
        const code = resolveRef(lists[c.list], text);
        if (code === undefined) problems[c.key] = [UNKNOWN[c.list]];
        else input[c.key] = c.list === 'exportCategory' || c.list === 'tax' ? code : Number(code);
      } else if (c.int) input[c.key] = /^\d+(\.0+)?$/.test(text) ? Number(text) : text;
      else if (c.key === 'tariff') input[c.key] = text.replace(/[.\s]/g, '');
      else if (c.key === 'origin') input[c.key] = text.toUpperCase();
      else input[c.key] = text;
    }
    return { input, problems };
  }

  function present(m: ItemImportRecord, lang: ApiLanguage): C.ItemImport {
    const byKey = new Map(IMPORT_COLUMNS.map((c, i) => [c.key, { c, letter: columnLetter(i + 1) }]));
    const issues = JSON.parse(m.errors) as StoredIssue[];
    return {
      id: m.id,
      customerId: m.customer_id,
      customerCode: m.customer_code,
      fileName: m.file_name,
      status: m.status as C.ItemImportStatus,
      // This process's figure only while committing (SQLite): once the row says done, it is 100.
      progress: m.status === 'committing' ? (local.get(m.id) ?? m.progress) : m.progress,
      totalRows: m.total_rows,
      validRows: m.valid_rows,
      invalidRows: m.invalid_rows,
      createdItems: m.created_items,
      previewUntil: m.status === 'preview' ? m.preview_until : null,
      errorMessage: m.error_message,
      hasErrorWorkbook: m.error_file_id !== null,
      errors: issues.map((e) => {
        const at = e.col ? byKey.get(e.col) : undefined;
        return {
          row: e.row,
          column: at?.letter ?? null,
          columnTitle: at ? (lang === 'en' ? at.c.en : at.c.zh) : null,
          message: e.msg[lang],
        };
      }),
      createdAt: m.created_at,
      updatedAt: m.updated_at,
    };
  }

  async function loadScoped(scope: Scope, id: number) {
    const m = await repo.find(scope, id);
    if (!m) throw new AppError(ErrorCode.NOT_FOUND, 'itemImportNotFound');
    return m;
  }

  /** Previews past their end: expired, their valid rows removed (the error workbook stays). */
  async function expirePreviews() {
    for (const m of await repo.expired(now())) {
      if (await repo.update(db, m.id, { status: 'expired', valid_key: null, updated_at: now() }, 'preview'))
        await removeFile(m.valid_key);
    }
  }
  // Once per period across instances (the queue's periodic job), not a timer in every instance.
  deps.jobs.every(
    { name: 'item-import-preview-expiry', run: () => expirePreviews() },
    { everyMs: SWEEP_MS, atStart: true },
  );

  const commits = createItemImportCommits({ ...deps, repo, progress: local });
  const enqueueCommit = commits.enqueue;

  return {
    /**
     * At start (expired previews are the periodic job's, run at start too): an import committing with no job to commit it (confirmed
     * before commits were queued jobs) is enqueued. The kind is exclusive per import, so one
     * another instance is committing right now is left to it, and the job does nothing to an
     * import no longer committing.
     */
    async recoverAtStart() {
      for (const m of await repo.committing())
        await enqueueCommit(m, { importId: m.id, userId: m.created_by, lang: 'zh-CN' });
    },

    async template() {
      return new Download('商品导入模板-items.xlsx', XLSX, await buildItemTemplate(await refLists()));
    },

    async upload(
      actor: Actor,
      scope: Scope,
      lang: ApiLanguage,
      customerIdAsked: number | undefined,
      upload: { filename: string; data: Buffer } | undefined,
    ): Promise<C.ItemImport> {
      const customerId = customerFor(actor, scope, customerIdAsked);
      // The container is checked here, before a worker is started for it (xlsx-guard.ts, lib/zip.ts).
      const file = await checkXlsxUpload(upload, deps.uploadLimitBytes);
      // Read in a worker with heap and time limits; the rows come back as text.
      const read = await readSheetRows(file.data, C.ITEM_IMPORT_MAX_ROWS);
      if (read.type === 'problem') throw AppError.validation({ file: [translate(lang, read.key, read.params)] });
      const [head, ...body] = read.rows;
      if (!head) throw AppError.field('file', 'itemImportNoRows');
      const at = new Map<ImportField, number>();
      head.cells.forEach((text, i) => {
        const c = columnOfHeader(text);
        if (c && !at.has(c.key)) at.set(c.key, i);
      });
      const missing = IMPORT_COLUMNS.filter((c) => c.required && !at.has(c.key));
      if (missing.length)
        throw AppError.validation({
          file: [
            translate(lang, 'itemImportMissingColumns', {
              columns: missing.map((c) => (lang === 'en' ? c.en : c.zh)).join(', '),
            }),
          ],
        });
      if (!body.length) throw AppError.field('file', 'itemImportNoRows');

      const lists = await refLists();
      const issues: StoredIssue[] = [];
      const bad = new Map<number, BadRow>();
      // A row's cells in the template's order (the upload's own order may differ).
      const inTemplateOrder = (cells: string[]) => IMPORT_COLUMNS.map((c) => cells[at.get(c.key) ?? -1] ?? '');
      const good: { row: number; values: NewItemValues }[] = [];
      const fail = (row: { row: number; cells: string[] }, field: string | null, msg: Text) => {
        issues.push({ row: row.row, col: (field as ImportField) ?? null, msg });
        const b = bad.get(row.row) ?? { values: inTemplateOrder(row.cells), fields: new Set<string>(), reasons: [] };
        if (field) b.fields.add(field);
        const title = field ? IMPORT_COLUMNS.find((c) => c.key === field) : undefined;
        b.reasons.push(title ? `${lang === 'en' ? title.en : title.zh}: ${msg[lang]}` : msg[lang]);
        bad.set(row.row, b);
      };

      // Each row through item/create's own rules: the contract's schema, then the service's checks.
      for (let n = 0; n < body.length; n++) {
        // A turn for other calls every few hundred rows: checking is on the event loop.
        if (n % 500 === 499) await nextTurn();
        const row = body[n]!;
        const cells = new Map<ImportField, string>();
        for (const [k, i] of at) cells.set(k, row.cells[i] ?? '');
        const { input, problems } = rowInput(cells, lists);
        for (const [f, keys] of Object.entries(problems)) for (const k of keys) fail(row, f, both(k));
        const parsed = C.itemInput.safeParse(input, { error: zodMaps.en });
        if (!parsed.success) {
          const zh = C.itemInput.safeParse(input, { error: zodMaps['zh-CN'] });
          const seen = new Set<string>();
          parsed.error.issues.forEach((issue, i) => {
            const field = issue.path.length ? String(issue.path[0]) : null;
            // One reason per cell: "Japan" is too long and not a code, one fix.
            if (field && (problems[field] || seen.has(field))) return;
            if (field) seen.add(field);
            const other = zh.success ? issue.message : (zh.error.issues[i]?.message ?? issue.message);
            fail(row, field, { en: issue.message, 'zh-CN': other });
          });
          continue;
        }
        if (Object.keys(problems).length) continue;
        const checked = await items.checkNew(parsed.data, customerId);
        if (checked.errors) {
          for (const [f, keys] of Object.entries(checked.errors)) for (const k of keys) fail(row, f, both(k));
          continue;
        }
        good.push({ row: row.row, values: checked.values });
      }

      // A JAN twice in the file: which row is meant is the customer's call, so every one of them fails.
      const byJan = new Map<string, number[]>();
      for (const g of good) byJan.set(g.values.jan, [...(byJan.get(g.values.jan) ?? []), g.row]);
      const taken = new Set(await repo.existingJans(db, customerId, [...byJan.keys()]));
      const rowsOf = new Map(body.map((r) => [r.row, r]));
      const valid: NewItemValues[] = [];
      for (const g of good) {
        const same = byJan.get(g.values.jan)!;
        if (same.length > 1) fail(rowsOf.get(g.row)!, 'jan', both('itemImportJanRepeated', { rows: same.join(', ') }));
        else if (taken.has(g.values.jan)) fail(rowsOf.get(g.row)!, 'jan', both('itemJanDuplicate'));
        else valid.push(g.values);
      }
      issues.sort((a, b) => a.row - b.row);

      const t = now();
      let errorFileId: number | null = null;
      let validKey: string | null = null;
      try {
        if (bad.size) {
          const workbook = await buildWorkbookBuffer(db, errorWorkbook(bad));
          errorFileId = await files.save({
            data: workbook,
            hint: 'item-import-errors.xlsx',
            customer_id: customerId,
            owner_user_id: actor.userId,
            kind: 'itemImportErrors',
            name: `${file.filename.replace(/\.xlsx$/i, '').slice(0, 150)}-errors.xlsx`,
            mime: XLSX,
            created_at: t,
          });
        }
        // The valid rows wait for confirmation in a file, not in this process's memory: any
        // instance can commit them.
        if (valid.length) validKey = (await files.write(Buffer.from(JSON.stringify(valid)), 'item-import.json')).key;
      } catch (e) {
        if (isStorageFull(e)) throw AppError.storageFull(e);
        throw e;
      }
      const id = await repo.insert({
        customer_id: customerId,
        created_by: actor.userId,
        file_name: file.filename.slice(0, 200),
        status: 'preview',
        progress: 100,
        total_rows: body.length,
        valid_rows: valid.length,
        invalid_rows: bad.size,
        errors: JSON.stringify(issues.slice(0, KEPT_ERRORS)),
        valid_key: validKey,
        error_file_id: errorFileId,
        preview_until: new Date(clock().getTime() + deps.previewTtlMinutes * 60_000).toISOString(),
        created_at: t,
        updated_at: t,
      });
      return present((await repo.find(scope, id))!, lang);
    },

    async progress(scope: Scope, lang: ApiLanguage, id: number) {
      let m = await loadScoped(scope, id);
      if (m.status === 'preview' && m.preview_until && Date.parse(m.preview_until) <= clock().getTime()) {
        await expirePreviews();
        m = await loadScoped(scope, id);
      }
      return present(m, lang);
    },

    async confirm(actor: Actor, scope: Scope, lang: ApiLanguage, id: number) {
      const m = await loadScoped(scope, id);
      const expired =
        m.status === 'expired' ||
        (m.status === 'preview' && m.preview_until !== null && Date.parse(m.preview_until) <= clock().getTime());
      if (expired) {
        await expirePreviews();
        throw AppError.conflict('itemImportExpired', { minutes: deps.previewTtlMinutes });
      }
      if (m.status !== 'preview') throw AppError.conflict('itemImportNotPreview');
      if (m.valid_rows === 0 || !m.valid_key) throw AppError.field('id', 'itemImportNothingValid');
      // Claimed atomically: two confirms of one preview commit it once. The claim and its job commit
      // together: no import committing without a job to commit it.
      await db.transaction().execute(async (trx) => {
        if (!(await repo.update(trx, id, { status: 'committing', progress: 0, updated_at: now() }, 'preview')))
          throw AppError.conflict('itemImportNotPreview');
        await enqueueCommit(m, { importId: id, userId: actor.userId, lang }, trx);
      });
      return present((await repo.find(scope, id))!, lang);
    },

    async errorWorkbook(scope: Scope, id: number) {
      const m = await loadScoped(scope, id);
      if (!m.error_file_id) throw AppError.badRequest('itemImportNoErrorWorkbook');
      const f = (await repo.file(m.error_file_id))!;
      return new Download(f.name, XLSX, await storedFileBody(files, f));
    },
  };
}

/**
 * The failed rows as they were uploaded (values only: the reader gave text), the sheet row
 * first, the reasons last, the bad cells shaded. Its headers are the template's, so once
 * fixed it uploads as it is.
 */
type BadRow = { values: string[]; fields: Set<string>; reasons: string[] };
function errorWorkbook(bad: Map<number, BadRow>) {
  return {
    sheet: {
      name: 'errors',
      boldHeader: true,
      frozenHeader: true,
      sharedStrings: true,
      columns: [
        { header: headerOf(ROW_COLUMN), width: 8 },
        ...IMPORT_COLUMNS.map((c: ImportColumn) => ({ header: headerOf(c), width: c.width ?? 14 })),
        { header: headerOf(REASON_COLUMN), width: 60 },
      ],
    },
    rows: [...bad.entries()]
      .sort(([a], [b]) => a - b)
      .map(([row, b]): WorkbookRow => {
        const styles: Record<number, { fill: string }> = {};
        IMPORT_COLUMNS.forEach((c, i) => {
          if (b.fields.has(c.key)) styles[i + 2] = { fill: 'FFFFC7CE' };
        });
        return {
          values: [row, ...b.values, b.reasons.join('\n')],
          styles,
        };
      }),
  };
}
export type ItemImportService = ReturnType<typeof createItemImportService>;
