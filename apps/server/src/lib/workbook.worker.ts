import fs from 'node:fs';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { parentPort } from 'node:worker_threads';
import type { PostgresConnection } from '../config.ts';
import type { RenderFn, WorkbookJobReply, WorkerJob } from './workbook-job.ts';
import { type WorkbookRow, writeWorkbook } from './workbook-writer.ts';

/**
 * Builds workbooks off the event loop, one job at a time: reads its rows (from its own
 * database connection, a page at a time, or as handed over), turns each into cells with
 * the export's row function, and streams the .xlsx into a file. Memory holds one page.
 * Nothing is kept between jobs but loaded modules.
 */

const PAGE = 1000;

type Row = Record<string, unknown>;
type WorkbookWork = Exclude<WorkerJob, { render: unknown }>;
type RenderWork = Extract<WorkerJob, { render: unknown }>;

/**
 * A connection of this thread's own to PostgreSQL. Its 'error' is listened to: a connection the
 * database ends (a restart, a failover: 57P01) is reported there, and unheard it ended the
 * thread's work without a reason (issue 38 row 0); heard, the query in flight, or the next one,
 * fails and the render fails with it.
 */
async function pgClient(database: PostgresConnection) {
  // Loaded only for PostgreSQL, with the type parsers the main thread uses (rows look the same),
  // and the pools' connection settings (timeouts as startup parameters: db/pg-connection.ts).
  const { pg } = await import('../db/pg-types.ts');
  const { pgClientOptions } = await import('../db/pg-connection.ts');
  const client = new pg.Client(pgClientOptions(database));
  let lost: Error | null = null;
  client.on('error', (err) => {
    lost = err;
  });
  await client.connect();
  return {
    query: async (sql: string, parameters?: unknown[]) => {
      if (lost) throw new Error(`database connection lost: ${(lost as Error).message}`);
      return client.query(sql, parameters);
    },
    end: () => client.end().catch(() => {}),
  };
}

const toParam = (v: unknown): SQLInputValue => {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === undefined) return null;
  return v as SQLInputValue;
};

/** SQLite: a read-only connection of its own; in WAL mode it reads beside the server's writer. */
function* sqlitePages(file: string, sql: string, parameters: readonly unknown[]): Generator<Row[]> {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    db.exec('PRAGMA busy_timeout = 10000');
    let page: Row[] = [];
    // One statement stepped row by row: one sort, one snapshot, a page in memory at a time.
    for (const row of db.prepare(sql).iterate(...parameters.map(toParam))) {
      page.push(row as Row);
      if (page.length === PAGE) {
        yield page;
        page = [];
      }
    }
    if (page.length) yield page;
  } finally {
    db.close();
  }
}

/** PostgreSQL: a cursor in a read-only transaction, fetched a page at a time. */
async function* pgPages(
  database: PostgresConnection,
  sql: string,
  parameters: readonly unknown[],
): AsyncGenerator<Row[]> {
  const client = await pgClient(database);
  try {
    await client.query('begin transaction read only');
    await client.query(`declare workbook_rows no scroll cursor for ${sql}`, parameters as unknown[]);
    for (;;) {
      const { rows } = await client.query(`fetch ${PAGE} from workbook_rows`);
      if (!rows.length) break;
      yield rows as Row[];
    }
    await client.query('commit');
  } finally {
    await client.end();
  }
}

/**
 * The rows the query will give, for the progress bar: counted here, on this thread's own
 * connection, so a count over 100,000 rows does not hold the server's event loop.
 */
async function countRows(job: WorkbookWork): Promise<number> {
  const { source } = job;
  if (!('query' in source)) return 'records' in source ? source.records.length : source.rows.length;
  const sql = `select count(*) as n from (${source.query.sql}) as export_rows`;
  if (source.database.dialect === 'sqlite') {
    const db = new DatabaseSync(source.database.file, { readOnly: true });
    try {
      db.exec('PRAGMA busy_timeout = 10000');
      return Number((db.prepare(sql).get(...source.query.parameters.map(toParam)) as { n: number }).n);
    } finally {
      db.close();
    }
  }
  const client = await pgClient(source.database);
  try {
    return Number((await client.query(sql, source.query.parameters as unknown[])).rows[0].n);
  } finally {
    await client.end();
  }
}

async function* pages(job: WorkbookWork): AsyncGenerator<WorkbookRow[]> {
  const { source, mapper, sheet } = job;
  if (job.count) parentPort!.postMessage({ type: 'total', rows: await countRows(job) } satisfies WorkbookJobReply);
  if ('rows' in source) {
    for (let i = 0; i < source.rows.length; i += PAGE) yield source.rows.slice(i, i + PAGE);
    return;
  }
  const fn = mapper
    ? ((await import(mapper.module)) as Record<string, (r: Row, arg: unknown) => WorkbookRow>)[mapper.name]!
    : null;
  const keys = sheet.columns.map((c) => c.key);
  const toRow = fn ? (r: Row) => fn(r, mapper!.arg) : (r: Row) => keys.map((k) => (k ? r[k] : null));
  const read =
    'records' in source
      ? (function* () {
          for (let i = 0; i < source.records.length; i += PAGE) yield source.records.slice(i, i + PAGE);
        })()
      : source.database.dialect === 'sqlite'
        ? sqlitePages(source.database.file, source.query.sql, source.query.parameters)
        : pgPages(source.database, source.query.sql, source.query.parameters);
  let rows = 0;
  for await (const page of read) {
    yield page.map(toRow);
    rows += page.length;
    // After the page is written: the count the console's progress bar shows.
    parentPort!.postMessage({ type: 'progress', rows } satisfies WorkbookJobReply);
  }
}

async function run(job: WorkbookWork) {
  const out = fs.createWriteStream(job.out);
  try {
    await writeWorkbook(job.sheet, pages(job), out);
  } catch (e) {
    out.destroy(); // the file's descriptor belongs to the process, not to this thread
    throw e;
  }
  const { size } = fs.statSync(job.out);
  parentPort!.postMessage({ type: 'done', size } satisfies WorkbookJobReply);
}

/**
 * A render job: the kind's function writes the file and reports its units done. The module was
 * looked up by kind in the process that posted the job (lib/render-kinds.ts), never read from a
 * render's input.
 */
async function render(job: RenderWork) {
  const fn = ((await import(job.render.module)) as Record<string, RenderFn>)[job.render.name];
  if (!fn) throw new Error(`no render function ${job.render.name} in ${job.render.module}`);
  await fn(job.render.arg as never, job.out, (done) =>
    parentPort!.postMessage({ type: 'progress', rows: done } satisfies WorkbookJobReply),
  );
  const { size } = fs.statSync(job.out);
  parentPort!.postMessage({ type: 'done', size } satisfies WorkbookJobReply);
}

parentPort!.on('message', (job: WorkerJob) => {
  ('render' in job ? render(job) : run(job)).catch((e: unknown) => {
    parentPort!.postMessage({
      type: 'failed',
      message: String((e as Error)?.stack ?? e).slice(0, 2000),
    } satisfies WorkbookJobReply);
  });
});
