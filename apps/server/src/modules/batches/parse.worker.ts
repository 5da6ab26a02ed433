import { parentPort } from 'node:worker_threads';
import type { OrderInput } from '../../domain/order-input.ts';
import type { CatalogueEntry } from '../../domain/pricing/tax-estimate.ts';
import { ZipBombError } from '../../lib/zip.ts';
import { writeErrorWorkbook } from './error-workbook.ts';
import { encodeParsedOrders } from './parsed-orders.ts';
import { lookupKeys, markCatalogue, taxNotes } from './parse.notes.ts';
import { buildOrders, groupOrders } from './parse.orders.ts';
import type { Confirmation, ConfirmOrder, ParseJob, StopMessage, WorkerMessage } from './parse.protocol.ts';
import { Fatal, readRecords, Stopped, streamRows } from './parse.sheet.ts';

/**
 * Parses and validates an uploaded workbook off the event loop (ARCHITECTURE.md "Jobs and workers": parsing runs
 * in worker threads). Streams the first sheet (parse.sheet.ts), groups rows into orders and
 * runs the domain rules (parse.orders.ts), asks the main thread which order numbers already
 * exist and what the catalogue knows (parse.notes.ts), writes the error workbook when needed
 * and hands the orders back in their stored form. What it says to the pool: parse.protocol.ts.
 */

const port = parentPort!;
/** Set by the pool's `STOP`: the parse ends at its next row or answer and posts nothing more. */
let stopping = false;
const post = (m: WorkerMessage) => !stopping && port.postMessage(m);

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

async function run(job: ParseJob) {
  const buf = Buffer.from(job.file.buffer, job.file.byteOffset, job.file.byteLength);
  const currencies = new Map(job.currencies);
  const channels = new Map(job.channels.map((c) => [c.code, c]));
  const currencyOf = (code: string) => channels.get(code)?.currency;

  // 1. Stream rows into records (header found on the first non-empty row).
  const sheet = await readRecords(buf, job, currencyOf, checkStop, (fraction, rows) =>
    post({ type: 'progress', fraction: fraction * 0.9, rows }),
  );
  const { records, headerRow } = sheet;

  // 2. Group consecutive rows with the same order number (and box) into orders; a later repeat wins.
  const grouped = groupOrders(records);
  const { kept, duplicates, droppedRows } = grouped;

  // 3. Orders from groups, cell conversions, then the domain rules.
  const { errors, issue, confirmByRow, orderConfirms, orders, built } = buildOrders(
    job,
    sheet,
    grouped,
    channels,
    currencies,
  );

  // 3b. The customer's catalogue (the main thread asks the database, a chunk of distinct JANs
  // per query) and the recipients' yearly cross-border totals (over every customer's orders:
  // only "would exceed" comes out of here).
  const channelTax = new Map(job.channelTax);
  const looked = await ask<{ entries: [string, CatalogueEntry][]; yearly: [string, number][] }>({
    type: 'lookup',
    ...lookupKeys(built, channelTax),
  });
  const entries = new Map(looked.entries);
  const yearly = new Map(looked.yearly);
  const unregistered = markCatalogue(job, { kept, built, orders }, entries, channelTax, issue);

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
  const { notes, notesSummary } = taxNotes(kept, orders, unregistered, { entries, yearly }, channelTax, currencies);

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
  const confirmAgg = new Map<string, Confirmation>();
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
      (onRow) => streamRows(buf, job.maxRows, checkStop, onRow),
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
