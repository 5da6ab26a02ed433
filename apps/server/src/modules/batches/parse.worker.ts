import { parentPort } from 'node:worker_threads';
import type { ApiLanguage } from '@console/contract';
import { normalizeCell } from '@console/contract/checks';
import { boxPriceConflicts } from '../../domain/box-prices.ts';
import type { DefaultSender } from '../../domain/default-sender.ts';
import { checkedCell, type OrderInput, validateOrder } from '../../domain/order-input.ts';
import {
  type CatalogueEntry,
  catalogueIssues,
  catalogueMarks,
  type ChannelTax,
  cnyWhole,
  estimateTax,
  fenText,
  passesYearlyLimit,
  type TaxEstimate,
} from '../../domain/tax-estimate.ts';
import {
  listedRowsLimit,
  MAX_PENDING_CHARS,
  MAX_SHEET_ROWS,
  readFirstSheetRows,
  type SheetRow,
  SMALL_SHEET_MAX_COLUMNS,
  XlsxLimitError,
} from '../../lib/xlsx-rows.ts';
import { ZipBombError } from '../../lib/zip.ts';
import { columnLetter as colLetter } from '../../lib/workbook-writer.ts';
import {
  COLUMNS,
  type ColumnDef,
  type ColumnKey,
  EXAMPLE_ORDER_NO,
  headerCurrency,
  headerText,
  matchHeader,
  type TemplateDef,
  TEMPLATES,
  templateMismatch,
} from './templates.ts';
import './batches.messages.ts';
import { writeErrorWorkbook } from './error-workbook.ts';
import { encodeParsedOrders } from './parsed-orders.ts';
import { readZipDirectory } from '../../lib/xlsx-guard.ts';

/**
 * Parses and validates an uploaded workbook off the event loop (DESIGN: parsing runs
 * in worker threads). Streams the first sheet (lib/xlsx-rows.ts), groups rows into orders,
 * runs the domain rules, asks the main thread which order numbers already exist,
 * writes the error workbook when needed and hands the orders back in their stored form.
 */
export interface ParseJob {
  file: Uint8Array;
  kind: keyof typeof TEMPLATES;
  /** Channel fixed by the template or chosen on the page (the order template may name it per row). */
  channel: string | null;
  customerId: number;
  exportNominationId: number | null;
  clearanceCompany: string | null;
  now: string;
  lang: ApiLanguage;
  maxRows: number;
  currencies: [string, number][];
  channels: { code: string; currency: string; origin: string }[];
  orderTypes: string[];
  clearanceCompanies: string[];
  /** Each channel's tax regime and whether it takes registered items only (orders.tax.ts). */
  channelTax: [string, ChannelTax][];
  /** The channels the customer may use (domain/customer-channels.ts); null: every channel. */
  allowedChannels: string[] | null;
  /** The customer's default sender (domain/default-sender.ts): an order without sender cells takes it. */
  defaultSender: DefaultSender | null;
}

/** What one order to be made should be known for (issue 12): the first 200 go to the preview. */
export interface OrderNote {
  row: number;
  orderNo: string;
  items: { row: number; jan: string; status: 'unknown' | 'pending' | 'failed' }[];
  tax: TaxEstimate | null;
  yearlyLimit: boolean;
  reasons: { key: string; params?: Record<string, string | number> }[];
}
export interface NotesSummary {
  unregisteredItems: number;
  yearlyLimitOrders: number;
  taxTotalFen: number;
  taxedOrders: number;
}

export interface Issue {
  row: number;
  col: ColumnKey | null;
  letter: string | null;
  key: string;
  params?: Record<string, string | number>;
}

export type WorkerMessage =
  /** Its modules are loaded: from now on it reads a StopMessage within moments. */
  | { type: 'ready' }
  | { type: 'progress'; fraction: number; rows: number }
  | { type: 'checkOrderNos'; orderNos: string[] }
  /** The customer's catalogue entries of these JANs and these recipients' yearly totals (fen). */
  | { type: 'lookup'; jans: string[]; idCards: string[] }
  /** A clean batch's orders in their stored form (parsed-orders.ts), its bytes transferred. */
  | { type: 'parsed'; data: Uint8Array; sha256: string }
  | {
      type: 'done';
      totalRows: number;
      validRows: number;
      invalidRows: number;
      confirmRows: number;
      orderCount: number;
      invalidOrders: number;
      errors: Issue[];
      confirmations: {
        kind: string;
        key: string;
        params?: Record<string, string | number>;
        rows: number[];
        count: number;
      }[];
      duplicates: { orderNo: string; rows: number[]; keptRow: number }[];
      /** Orders that need confirmation (the first 200), each with its reasons. */
      confirmOrders: ConfirmOrder[];
      orderNotes: OrderNote[];
      notesSummary: NotesSummary;
      errorWorkbook: Uint8Array | null;
    }
  | { type: 'fatal'; key: string; params?: Record<string, string | number> };

/**
 * The pool asks a worker to end with this message (parse-pool.ts), never by terminating it first: a thread
 * terminated in the middle of native work (zlib inflating on the thread pool) could take the
 * whole process down (a SIGSEGV once in CI, as the app closed during a parse). The worker stops
 * at its next row or answer, lets its inflater close and leaves its event loop empty.
 */
export type StopMessage = { type: 'stop' };

export interface ConfirmOrder {
  row: number;
  orderNo: string;
  reasons: { kind: string; key: string; params?: Record<string, string | number> }[];
}

class Fatal extends Error {
  readonly key: string;
  readonly params?: Record<string, string | number>;
  constructor(key: string, params?: Record<string, string | number>) {
    super(key);
    this.key = key;
    this.params = params;
  }
}

const port = parentPort!;
/** Set by the pool's `STOP`: the parse ends at its next row or answer and posts nothing more. */
let stopping = false;
const post = (m: WorkerMessage) => !stopping && port.postMessage(m);

/** The parse was asked to stop: it unwinds (closing its inflater) and the worker exits. */
class Stopped extends Error {}
const checkStop = () => {
  if (stopping) throw new Stopped('stopped');
};

/** The one answer the parse waits for from the main thread (a lookup), if any. */
let awaiting: { resolve: (m: unknown) => void; reject: (e: Error) => void } | null = null;
/** Posts a question and waits for its answer, or for `STOP`. */
function ask<T>(question: WorkerMessage): Promise<T> {
  checkStop();
  return new Promise<T>((resolve, reject) => {
    awaiting = { resolve: resolve as (m: unknown) => void, reject };
    post(question);
  });
}

/** Past Excel's sheet limits or the reader's buffer: the reason the uploader reads. */
function limitFatal(e: XlsxLimitError, maxRows: number): Fatal {
  if (e.limit === 'listedRows') return new Fatal('fileTooManyListedRows', { max: listedRowsLimit(maxRows) });
  if (e.limit === 'rows') return new Fatal('fileRowsPastLimit', { max: MAX_SHEET_ROWS });
  if (e.limit === 'columns') return new Fatal('fileColumnsPastLimit', { max: 'XFD' });
  return new Fatal('fileRowTooLong', { mb: MAX_PENDING_CHARS / 1024 / 1024 });
}

/** The sheet is another template than the one chosen: say which it looks like, in the uploader's language. */
function wrongTemplate(
  def: TemplateDef,
  wrong: NonNullable<ReturnType<typeof templateMismatch>>,
  found: ReadonlySet<ColumnKey>,
  lang: ApiLanguage,
) {
  const title = (d: TemplateDef) => (lang === 'en' ? d.title.en : d.title.zh);
  if ('currency' in wrong) return new Fatal('fileWrongCurrency', { expected: title(def), found: wrong.currency });
  // A kind is named only when the sheet has its required columns: a label-B or Meituan workbook
  // has the bare shape of seven order templates, and a list of seven tells the uploader less than
  // the one template the page expects (issue 28 #13).
  const complete = wrong.like.filter((d) =>
    d.columns.every((k) => !(COLUMNS[k] as ColumnDef).required || found.has(k)),
  );
  if (!complete.length) return new Fatal('fileNotTemplate', { expected: title(def) });
  return new Fatal('fileWrongTemplate', {
    expected: title(def),
    looksLike: complete.map(title).join(lang === 'en' ? ' / ' : '、'),
  });
}

/** A cell as trimmed text; a problem key when it cannot be read as text. */
function cellText(v: unknown, col: ColumnDef): { text: string } | { problem: string } {
  if (v === null || v === undefined) return { text: '' };
  if (typeof v === 'string') return { text: normalizeCell(v) };
  if (typeof v === 'number') {
    if (col.type === 'text' && Number.isInteger(v) && Math.abs(v) > Number.MAX_SAFE_INTEGER)
      return { problem: 'cellNumberTooLong' };
    return { text: String(v) };
  }
  if (typeof v === 'boolean') return { text: v ? 'TRUE' : 'FALSE' };
  if (v instanceof Date) return { text: v.toISOString().slice(0, 10) };
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if ('formula' in o || 'sharedFormula' in o) {
      if (
        o.result === undefined ||
        o.result === null ||
        (typeof o.result === 'object' && 'error' in (o.result as object))
      )
        return { problem: 'cellFormulaNoValue' };
      return cellText(o.result, col);
    }
    if ('error' in o) return { problem: 'cellErrorValue' };
    if ('richText' in o) return { text: normalizeCell((o.richText as { text: string }[]).map((r) => r.text).join('')) };
    if ('text' in o) return cellText(o.text, col);
  }
  return { text: normalizeCell(String(v)) };
}

function moneyToMinor(text: string, decimals: number): number | null {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text.replace(/,/g, ''));
  if (!m) return null;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > decimals) return null;
  return Number(m[1]) * 10 ** decimals + Number(frac.padEnd(decimals, '0') || '0');
}

/** A row's non-empty cells by column (keys added in header order: one object shape per file). */
type RowRec = { row: number; values: Partial<Record<ColumnKey, string>> };

/** Streams the first worksheet's rows; tells whether the sheet declares merged cells. */
function streamRows(
  buf: Buffer,
  maxRows: number,
  onRow: (row: SheetRow, rowNo: number) => void,
  onBytes?: (read: number, total: number) => void,
) {
  const entries = readZipDirectory(buf);
  if (!entries) throw new Fatal('fileCorrupt');
  return readFirstSheetRows(buf, entries, {
    onRow: (row, rowNo) => {
      checkStop();
      onRow(row, rowNo);
    },
    onBytes,
    maxListedRows: listedRowsLimit(maxRows),
  });
}

async function run(job: ParseJob) {
  const buf = Buffer.from(job.file.buffer, job.file.byteOffset, job.file.byteLength);
  const now = new Date(job.now);
  const def = TEMPLATES[job.kind];
  const currencies = new Map(job.currencies);
  const ctx = {
    now,
    currencies,
    orderTypes: new Set(job.orderTypes),
    clearanceCompanies: new Set(job.clearanceCompanies),
    allowedChannels: job.allowedChannels ? new Set(job.allowedChannels) : null,
  };
  const channels = new Map(job.channels.map((c) => [c.code, c]));
  const currencyOf = (code: string) => channels.get(code)?.currency;

  // 1. Stream rows into records (header found on the first non-empty row).
  let header: Map<number, ColumnKey> | null = null;
  let headerRow = 0;
  const records: RowRec[] = [];
  const cellProblems: Issue[] = [];
  let lastProgress = 0;
  const streaming = streamRows(
    buf,
    job.maxRows,
    (row, rowNo) => {
      if (!header) {
        const h = new Map<number, ColumnKey>();
        // Every template's columns are looked for, not only this one's: a box column under a
        // template without boxes tells the sheet is another kind (it was ignored silently).
        const found = new Set<ColumnKey>();
        let priceCurrency: string | undefined;
        // The cells present only (a row's cost is its cells, not its last column), within IV.
        row.cols.forEach((i, k) => {
          if (i > SMALL_SHEET_MAX_COLUMNS) return;
          const t = cellText(row.values[k], COLUMNS.remark);
          if (!('text' in t)) return;
          const key = matchHeader(t.text);
          if (!key) return;
          found.add(key);
          if (key === 'unitPrice') priceCurrency = headerCurrency(t.text);
          if (def.columns.includes(key)) h.set(i, key);
        });
        if (h.size === 0) return; // leading blank or title rows
        const wrong = templateMismatch(def, { keys: found, priceCurrency }, currencyOf);
        if (wrong) throw wrongTemplate(def, wrong, found, job.lang);
        const missing = def.columns.filter((k) => (COLUMNS[k] as ColumnDef).required && ![...h.values()].includes(k));
        if (missing.length)
          throw new Fatal('fileMissingColumns', { columns: missing.map((k) => headerText(COLUMNS[k])).join(', ') });
        header = h;
        headerRow = rowNo;
        return;
      }
      const rec: RowRec = { row: rowNo, values: {} };
      let any = false;
      for (const [i, key] of header) {
        const t = checkedCell(key, cellText(row.get(i), COLUMNS[key]));
        if ('problem' in t) {
          cellProblems.push({ row: rowNo, col: key, letter: colLetter(i), key: t.problem });
          any = true;
        } else if (t.text) {
          rec.values[key] = t.text;
          any = true;
        }
      }
      if (!any) return; // blank rows are skipped
      if (rec.values['orderNo'] === EXAMPLE_ORDER_NO) return;
      records.push(rec);
      if (records.length > job.maxRows) throw new Fatal('fileTooManyRows', { max: job.maxRows });
    },
    (read, total) => {
      const fraction = read / total;
      if (fraction - lastProgress >= 0.02) {
        lastProgress = fraction;
        post({ type: 'progress', fraction: fraction * 0.9, rows: records.length });
      }
    },
  );
  let read: { merged: boolean };
  try {
    read = await streaming;
  } catch (e) {
    // A bomb is a bomb, a stop a stop: neither is inflated again to look for merged cells.
    if (e instanceof ZipBombError || e instanceof Stopped) throw e;
    if (e instanceof XlsxLimitError) throw limitFatal(e, job.maxRows);
    // Merged cells explain most unreadable headers: say so first, as when they were checked up front.
    if (
      await streamRows(buf, job.maxRows, () => {}).then(
        (r) => r.merged,
        () => false,
      )
    )
      throw new Fatal('fileMergedCells');
    throw e;
  }
  if (read.merged) throw new Fatal('fileMergedCells');
  if (!header) throw new Fatal('fileNoHeader');
  if (records.length === 0) throw new Fatal('fileNoRows');
  const letterOf = new Map<ColumnKey, string>(
    [...(header as Map<number, ColumnKey>)].map(([i, k]) => [k, colLetter(i)]),
  );

  // 2. Group consecutive rows with the same order number (and box) into orders; a later repeat wins.
  type Group = { orderNo: string; rows: RowRec[] };
  const groups: Group[] = [];
  for (const rec of records) {
    const no = rec.values['orderNo'] ?? '';
    const last = groups.at(-1);
    if (last && no && last.orderNo === no && (last.rows[0]!.values['boxNo'] ?? '') === (rec.values['boxNo'] ?? '')) {
      last.rows.push(rec);
    } else groups.push({ orderNo: no, rows: [rec] });
  }
  const lastIndexOf = new Map<string, number>();
  groups.forEach((g, i) => g.orderNo && lastIndexOf.set(g.orderNo, i));
  const duplicates = new Map<string, { orderNo: string; rows: number[]; keptRow: number }>();
  const kept: Group[] = [];
  const droppedRows = new Set<number>();
  groups.forEach((g, i) => {
    const lastIdx = lastIndexOf.get(g.orderNo);
    if (g.orderNo && lastIdx !== undefined && lastIdx !== i) {
      const d = duplicates.get(g.orderNo) ?? { orderNo: g.orderNo, rows: [], keptRow: groups[lastIdx]!.rows[0]!.row };
      d.rows.push(...g.rows.map((r) => r.row));
      duplicates.set(g.orderNo, d);
      g.rows.forEach((r) => droppedRows.add(r.row));
    } else kept.push(g);
  });

  // 3. Orders from groups, cell conversions, then the domain rules.
  const errors: Issue[] = cellProblems.filter((p) => !droppedRows.has(p.row));
  const confirmByRow = new Map<number, { key: string; params?: Record<string, string | number> }[]>();
  const confirmAgg = new Map<
    string,
    { kind: string; key: string; params?: Record<string, string | number>; rows: number[]; count: number }
  >();
  /** Per kept order: what it needs confirmed (counted once the orders with errors are known). */
  const orderConfirms: ConfirmOrder['reasons'][] = [];
  const orders: (OrderInput | null)[] = [];
  /** Every order built from its rows, with errors or not: its items are checked against the catalogue. */
  const built: (OrderInput | null)[] = [];
  // A cell that could not be read reports that, not the rule it then fails.
  const unreadable = new Set(cellProblems.map((p) => `${p.row}:${p.col}`));
  const issue = (row: number, col: ColumnKey | null, key: string, params?: Record<string, string | number>) => {
    if (col && unreadable.has(`${row}:${col}`)) return;
    errors.push({ row, col, letter: col ? (letterOf.get(col) ?? null) : null, key, ...(params ? { params } : {}) });
  };
  const fieldCol: Record<string, ColumnKey> = {
    orderNo: 'orderNo',
    'recipient.name': 'recipientName',
    'recipient.idCard': 'recipientIdCard',
    'recipient.phone': 'recipientPhone',
    'recipient.province': 'recipientProvince',
    'recipient.city': 'recipientCity',
    'recipient.district': 'recipientDistrict',
    'recipient.address': 'recipientAddress',
    'recipient.postcode': 'recipientPostcode',
    'recipient.email': 'recipientName',
    'sender.phone': 'senderPhone',
    orderType: 'orderType',
    clearanceCompanyCode: 'clearanceCompany',
    name: 'itemName',
    jan: 'jan',
    quantity: 'quantity',
    unitPrice: 'unitPrice',
    currency: 'currency',
  };
  const orderCols = def.columns.filter((k) => (COLUMNS[k] as ColumnDef).level === 'order');

  for (const g of kept) {
    const first = g.rows[0]!;
    const v = (k: ColumnKey) => first.values[k] ?? '';
    const nul = (k: ColumnKey) => first.values[k] || null;
    // Order-level cells of the following rows may be left empty; if filled they must agree.
    for (const r of g.rows.slice(1)) {
      for (const k of orderCols) {
        const x = r.values[k];
        if (x && x !== v(k)) issue(r.row, k, 'cellDiffersWithinOrder', { first: first.row });
      }
    }
    const channelCode = def.channel ?? (v('channel') || job.channel || '');
    const channel = channels.get(channelCode);
    if (!channel) {
      issue(
        first.row,
        def.columns.includes('channel') ? 'channel' : null,
        channelCode ? 'channelUnknown' : 'channelRequired',
        { value: channelCode },
      );
      orders.push(null);
      built.push(null);
      orderConfirms.push([]);
      continue;
    }
    let bad = false;
    const items = g.rows.map((r) => {
      const cur = r.values['currency'] || channel.currency;
      const decimals = currencies.get(cur) ?? 2;
      const qtyText = r.values['quantity'] ?? '';
      const quantity = /^\d+$/.test(qtyText) ? Number(qtyText) : NaN;
      if (qtyText && Number.isNaN(quantity)) {
        issue(r.row, 'quantity', 'quantityInvalid');
        bad = true;
      } else if (!qtyText) {
        issue(r.row, 'quantity', 'cellRequired');
        bad = true;
      }
      const priceText = r.values['unitPrice'] ?? '';
      const price = priceText ? moneyToMinor(priceText, decimals) : 0;
      if (price === null) {
        // "At most 0 decimals" reads as a riddle: a whole-unit currency (JPY) says so.
        if (decimals === 0) issue(r.row, 'unitPrice', 'cellMoneyWhole', { currency: cur });
        else issue(r.row, 'unitPrice', 'cellMoneyFormat', { decimals });
        bad = true;
      }
      return {
        jan: r.values['jan'] || null,
        name: r.values['itemName'] ?? '',
        brand: r.values['brand'] || null,
        spec: r.values['spec'] || null,
        quantity: Number.isNaN(quantity) ? 1 : quantity,
        unitPrice: price ?? 1,
        currency: cur.toUpperCase(),
        origin: r.values['origin'] || channel.origin,
        hazardCode: r.values['hazardCode'] || null,
      };
    });
    if (def.columns.includes('boxNo') && !v('boxNo')) {
      issue(first.row, 'boxNo', 'boxNoRequired');
      bad = true;
    }
    // No sender cells (or no sender columns): the customer's default sender, as single create
    // fills it; none at all is refused here rather than printed as "寄件人 From -".
    let sender: OrderInput['sender'] = {
      name: nul('senderName'),
      address: nul('senderAddress'),
      phone: nul('senderPhone'),
    };
    if (!sender.name && !sender.address && !sender.phone && job.defaultSender) sender = { ...job.defaultSender };
    if (!sender.name) {
      issue(first.row, def.columns.includes('senderName') ? 'senderName' : null, 'senderRequired');
      bad = true;
    }
    const order: OrderInput = {
      customerId: job.customerId,
      channel: channel.code as OrderInput['channel'],
      orderNo: g.orderNo,
      boxNo: nul('boxNo'),
      userRefNo: nul('userRefNo'),
      orderType: v('orderType') || 'normal',
      exportNominationId: job.exportNominationId,
      clearanceCompanyCode: v('clearanceCompany') || job.clearanceCompany,
      recipient: {
        name: v('recipientName'),
        idCard: v('recipientIdCard').toUpperCase(),
        phone: v('recipientPhone'),
        email: null,
        province: v('recipientProvince'),
        city: v('recipientCity'),
        district: v('recipientDistrict'),
        street: null,
        address: v('recipientAddress'),
        postcode: nul('recipientPostcode'),
      },
      sender,
      items,
      insuredAmount: 0,
      remark: nul('remark'),
    };
    const res = validateOrder(order, ctx);
    for (const e of res.errors) {
      const m = /^items\.(\d+)\.(\w+)$/.exec(e.field);
      const row = m ? g.rows[Number(m[1])]!.row : first.row;
      const col = fieldCol[m ? m[2]! : e.field] ?? null;
      issue(row, col && def.columns.includes(col) ? col : null, e.messageKey, e.params);
      bad = true;
    }
    const reasons: ConfirmOrder['reasons'] = [];
    for (const c of res.confirmations) {
      const m = /^items\.(\d+)\./.exec(c.field);
      const row = m ? g.rows[Number(m[1])]!.row : first.row;
      (confirmByRow.get(row) ?? confirmByRow.set(row, []).get(row)!).push({ key: c.messageKey, params: c.params });
      reasons.push({ kind: c.kind, key: c.messageKey, ...(c.params ? { params: c.params } : {}) });
    }
    orderConfirms.push(reasons);
    orders.push(bad ? null : order);
    built.push(order);
  }

  // 3a. Several prices for one JAN across the orders of one box (spec §5): asked like the same
  // prices within one order, once per order and JAN.
  for (const [i, boxJans] of boxPriceConflicts(built)) {
    const o = built[i]!;
    const reasons = orderConfirms[i]!;
    for (const jan of boxJans) {
      if (reasons.some((r) => r.kind === 'multiplePricesPerJan' && r.params?.jan === jan)) continue;
      const row = kept[i]!.rows[o.items.findIndex((it) => it.jan === jan)]!.row;
      (confirmByRow.get(row) ?? confirmByRow.set(row, []).get(row)!).push({
        key: 'confirmMultiplePricesPerJan',
        params: { jan },
      });
      reasons.push({ kind: 'multiplePricesPerJan', key: 'confirmMultiplePricesPerJan', params: { jan } });
    }
  }

  // 3b. The customer's catalogue (the main thread asks the database, a chunk of distinct JANs
  // per query) and the recipients' yearly cross-border totals (over every customer's orders:
  // only "would exceed" comes out of here).
  const channelTax = new Map(job.channelTax);
  const jans = new Set<string>();
  const idCards = new Set<string>();
  for (const o of built) {
    if (!o) continue;
    for (const it of o.items) if (it.jan) jans.add(it.jan);
    if (channelTax.get(o.channel)?.regime?.yearlyLimit) idCards.add(o.recipient.idCard);
  }
  const looked = await ask<{ entries: [string, CatalogueEntry][]; yearly: [string, number][] }>({
    type: 'lookup',
    jans: [...jans],
    idCards: [...idCards],
  });
  const entries = new Map(looked.entries);
  const yearly = new Map(looked.yearly);
  const unregistered: OrderNote['items'][] = [];
  kept.forEach((g, i) => {
    const o = built[i];
    unregistered.push([]);
    if (!o) return;
    const marks = catalogueMarks(o, entries);
    for (const c of catalogueIssues(o, marks, channelTax.get(o.channel))) {
      const row = g.rows[c.item]!.row;
      if (c.refused) {
        issue(row, def.columns.includes('jan') ? 'jan' : null, c.messageKey, c.params);
        orders[i] = null;
      } else if (c.mark !== 'noJan') unregistered[i]!.push({ row, jan: c.params['jan']!, status: c.mark });
    }
  });

  // 4. Order numbers that already exist for the customer (the main thread asks the database).
  const orderNos = kept.map((g) => g.orderNo).filter(Boolean);
  const existing = new Set((await ask<{ existing: string[] }>({ type: 'checkOrderNos', orderNos })).existing);
  kept.forEach((g, i) => {
    if (g.orderNo && existing.has(g.orderNo)) {
      issue(g.rows[0]!.row, 'orderNo', 'orderNoExists', { value: g.orderNo });
      orders[i] = null;
    }
  });

  // 4b. The tax estimate of each order to be made (stored with it) and the yearly limit, the
  // sheet's own earlier orders to the same recipient counted.
  const orderNotes: OrderNote[] = [];
  const flaggedNotes: OrderNote[] = [];
  // toLocaleString is slow (40 ms over 100,000 orders to one recipient): once per limit.
  const limitTexts = new Map<string, string>();
  const limitText = (cny: string) => limitTexts.get(cny) ?? limitTexts.set(cny, cnyWhole(cny)).get(cny)!;
  const notesSummary: NotesSummary = { unregisteredItems: 0, yearlyLimitOrders: 0, taxTotalFen: 0, taxedOrders: 0 };
  kept.forEach((g, i) => {
    const o = orders[i];
    if (!o) return;
    const regime = channelTax.get(o.channel)?.regime ?? null;
    const tax = estimateTax(o, regime, entries, currencies);
    const reasons: OrderNote['reasons'] = [];
    let passes = false;
    if (tax) {
      o.taxEstimate = fenText(tax.totalFen);
      notesSummary.taxedOrders++;
      notesSummary.taxTotalFen += tax.totalFen;
      if (regime?.yearlyLimit) {
        const earlier = yearly.get(o.recipient.idCard) ?? 0;
        passes = passesYearlyLimit(regime, earlier, tax.valueFen);
        yearly.set(o.recipient.idCard, earlier + tax.valueFen);
        if (passes) {
          notesSummary.yearlyLimitOrders++;
          reasons.push({ key: 'yearlyLimitExceeded', params: { limit: limitText(regime.yearlyLimit) } });
        }
      }
    }
    const items = unregistered[i]!;
    notesSummary.unregisteredItems += items.length;
    reasons.unshift(...items.map((it) => ({ key: `itemNotRegistered_${it.status}`, params: { jan: it.jan } })));
    // Orders with warnings first: the first 200 of a large sheet should not hide them.
    const list = reasons.length ? flaggedNotes : orderNotes;
    if (list.length < 200)
      list.push({ row: g.rows[0]!.row, orderNo: g.orderNo, items, tax, yearlyLimit: passes, reasons });
  });
  const notes = [...flaggedNotes, ...orderNotes].slice(0, 200).sort((a, b) => a.row - b.row);

  // 5. Counts per row.
  const errorRows = new Set(errors.map((e) => e.row));
  // An order with an error makes all its rows invalid; a row that is invalid only so says why,
  // so the rows counted as errors are the rows listed.
  kept.forEach((g) => {
    const bad = g.rows.find((r) => errorRows.has(r.row));
    if (!bad) return;
    for (const r of g.rows) {
      if (errorRows.has(r.row)) continue;
      errors.push({ row: r.row, col: null, letter: null, key: 'rowOfOrderWithErrors', params: { row: bad.row } });
      errorRows.add(r.row);
    }
  });
  errors.sort((a, b) => a.row - b.row);
  // Confirmations count among the orders that can be made: an order with errors is fixed first.
  const confirmOrders: ConfirmOrder[] = [];
  kept.forEach((g, i) => {
    const reasons = orderConfirms[i] ?? [];
    if (!orders[i] || !reasons.length) return;
    const row = g.rows[0]!.row;
    if (confirmOrders.length < 200) confirmOrders.push({ row, orderNo: g.orderNo, reasons });
    for (const kind of new Set(reasons.map((r) => r.kind))) {
      const agg = confirmAgg.get(kind) ?? { kind, key: `confirmKind_${kind}`, rows: [], count: 0 };
      agg.count++;
      if (agg.rows.length < 50) agg.rows.push(row);
      confirmAgg.set(kind, agg);
    }
  });
  const keptRows = records.filter((r) => !droppedRows.has(r.row));
  const invalidRows = keptRows.filter((r) => errorRows.has(r.row)).length;
  const confirmGroups = new Set<number>();
  kept.forEach((g) => {
    if (!g.rows.some((r) => errorRows.has(r.row)) && g.rows.some((r) => confirmByRow.has(r.row)))
      g.rows.forEach((r) => confirmGroups.add(r.row));
  });
  const confirmRows = confirmGroups.size;
  const validRows = keptRows.length - invalidRows - confirmRows;

  // 6. The error workbook: the rows that failed only (issue 28 #6: with the created rows in it, an
  // upload of the fixed file met its own orders as "already exists"), their reasons beside them and
  // the bad cells marked. Rows to confirm and dropped repeats are not failures: the preview lists them.
  let errorWorkbook: Uint8Array | null = null;
  if (invalidRows > 0)
    errorWorkbook = await writeErrorWorkbook(
      (onRow) => streamRows(buf, job.maxRows, onRow),
      headerRow,
      errors,
      job.lang,
    );

  // 7. The orders without errors back to the main thread as the bytes it stores: a clean batch is
  // committed whole, one with errors only when the user chooses to import its valid orders now.
  const good = orders.filter((o): o is OrderInput => o !== null);
  const orderCount = good.length;
  if (good.length) {
    const { data, sha256 } = encodeParsedOrders(good);
    // A buffer of its own is handed over as it is; one inside Node's shared pool is copied first.
    const own = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
    const bytes = own ? new Uint8Array(data.buffer) : new Uint8Array(data);
    port.postMessage({ type: 'parsed', data: bytes, sha256 } satisfies WorkerMessage, [bytes.buffer as ArrayBuffer]);
  }
  post({
    type: 'done',
    totalRows: records.length,
    validRows,
    invalidRows,
    confirmRows,
    orderCount,
    invalidOrders: kept.length - good.length,
    errors: errors.slice(0, 200),
    confirmations: [...confirmAgg.values()],
    confirmOrders,
    orderNotes: notes,
    notesSummary,
    duplicates: [...duplicates.values()].slice(0, 200),
    errorWorkbook,
  });
}

/** The worker leaves: with no port its event loop empties and the thread exits by itself. */
const leave = () => port.close();
let started = false;
let ended = false;

// Started ahead of need (its modules load while it waits), then given one job; then a StopMessage.
port.on('message', (m: ParseJob | StopMessage | Record<string, unknown>) => {
  if ((m as StopMessage).type === 'stop') {
    stopping = true;
    const waiting = awaiting;
    awaiting = null;
    waiting?.reject(new Stopped('stopped'));
    // Idle (never given a job, or its job over): nothing to unwind.
    if (!started || ended) leave();
    return;
  }
  if (started) {
    const waiting = awaiting;
    awaiting = null;
    waiting?.resolve(m);
    return;
  }
  started = true;
  run(m as ParseJob)
    .catch((e: unknown) => {
      if (e instanceof Stopped || stopping) return;
      if (e instanceof Fatal) post({ type: 'fatal', key: e.key, params: e.params });
      else if (e instanceof ZipBombError) post({ type: 'fatal', key: 'fileZipBomb' });
      else
        post({
          type: 'fatal',
          key: 'fileCorrupt',
          params: { detail: String((e as Error)?.message ?? e).slice(0, 200) },
        });
    })
    .finally(() => {
      ended = true;
      if (stopping) leave();
    });
});
post({ type: 'ready' });
