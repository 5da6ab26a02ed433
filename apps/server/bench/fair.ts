/**
 * Turns by customer in the file pool (issue 27): starts the server on loopback (SQLite in a temp
 * folder; PostgreSQL in a database made for the run when `--pg` is given or DATABASE_URL is a
 * postgres:// URL), gives demo 6,000 orders, times demo2's label-B template and one-page order
 * export alone, then again while demo's six PD PDF renders of those 6,000 orders run
 * (order/downloadMDA2PDByOrder, in parallel). Goal: each of demo2's answers within 2 s.
 * The machine's load average is printed with each figure (the renders are not waited for).
 * `--small N` (issue 36 #3): demo's attack is N parallel exports of its whole order list instead
 * (each small with `--orders 1900`: under SMALL_JOB_ROWS), and their answers are counted (429s
 * past RENDERS_QUEUED_PER_TENANT).
 *   npm run bench:fair -w apps/server [-- --pg] [-- --port 8124] [-- --orders 6000] [-- --small 30]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { httpClient } from '../test/harness.ts';
import { testConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const port = Number(arg('--port') ?? 8124);
const ORDERS = Number(arg('--orders') ?? 6000);
const SMALL = Number(arg('--small') ?? 0);
const RENDERS = SMALL || 6;
const pgUrl =
  process.env.DATABASE_URL?.startsWith('postgres') === true
    ? process.env.DATABASE_URL
    : process.argv.includes('--pg')
      ? 'postgres://postgres@127.0.0.1:5432/postgres'
      : undefined;
const base = `http://127.0.0.1:${port}/api`;
const http = httpClient(base);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fair-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () => `load ${os.loadavg()[0]!.toFixed(1)}`;

let databaseUrl = path.join(dir, 'console.sqlite');
let dropDatabase = async () => {};
if (pgUrl) {
  const name = `bench_fair_${process.pid}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(pgUrl);
  u.pathname = `/${name}`;
  databaseUrl = u.toString();
  dropDatabase = async () => {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  };
}

const server = spawn(process.execPath, [path.join(import.meta.dirname, '../src/server.ts')], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    DATABASE_URL: databaseUrl,
    DEMO_SEED: 'true',
    JD_SECRET_KEY: 'a'.repeat(64),
    LOG_LEVEL: 'warn',
  },
  stdio: 'ignore',
});

/** demo's orders up to ORDERS, the missing ones inserted (one item line each). */
async function demoOrders(): Promise<number[]> {
  const db = createDatabase(testConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dir }).database);
  try {
    const demo = await db.selectFrom('customers').select('id').where('code', '=', 'DEMO').executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    const have = await db.selectFrom('orders').select('id').where('customer_id', '=', demo.id).execute();
    for (let s = have.length; s < ORDERS; s += 1000) {
      const rows = await db
        .insertInto('orders')
        .values(
          Array.from({ length: Math.min(1000, ORDERS - s) }, (_, k) => ({
            customer_id: demo.id,
            channel_code: 'JP',
            order_no: `FAIR${s + k}`,
            waybill_no: `WBFAIR${s + k}`,
            system_no: `SFAIR${s + k}`,
            status: 'created',
            recipient_name: '王小明',
            recipient_id_card: '110105198001011234',
            recipient_phone: '13812345678',
            recipient_province: '浙江省',
            recipient_city: '杭州市',
            recipient_district: '西湖区',
            recipient_address: `文三路${s + k}号`,
            currency: 'JPY',
            created_at: at,
            updated_at: at,
          })),
        )
        .returning('id')
        .execute();
      await db
        .insertInto('order_items')
        .values(
          rows.map((o) => ({
            order_id: o.id,
            line_no: 1,
            jan: '4901234567894',
            name: '面霜',
            quantity: 2,
            unit_price: 999,
            currency: 'JPY',
            origin: 'JP',
          })),
        )
        .execute();
      have.push(...rows);
    }
    return have.slice(0, ORDERS).map((r) => r.id);
  } finally {
    await db.destroy();
  }
}

/** A download's status and seconds (the body read to its end, as a browser does). */
async function download(call: string, token: string, body: unknown) {
  const t = performance.now();
  const r = await fetch(`${base}/${call}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const bytes = (await r.arrayBuffer()).byteLength;
  return { status: r.status, bytes, seconds: (performance.now() - t) / 1000 };
}
const demo2Calls = async (demo2: string) => {
  const template = await download('updateLableB/downloadXlsx', demo2, {});
  const exp = await download('order/downloadOrderExcel', demo2, {});
  return (
    `template ${template.seconds.toFixed(2)} s (${template.status}), ` +
    `one-page export ${exp.seconds.toFixed(2)} s (${exp.status}, ${exp.bytes} B) [${load()}]`
  );
};

try {
  await http.ready();
  const [demo, demo2] = [await http.login('demo'), await http.login('demo2')];
  const ids = await demoOrders();
  console.log(
    `database: ${pgUrl ? 'PostgreSQL' : 'SQLite'}; demo's renders: ${RENDERS} × ${SMALL ? "its order list's export" : `PD PDF of ${ids.length} orders`}`,
  );
  console.log(`demo2 alone:                 ${await demo2Calls(demo2)}`);
  const t0 = performance.now();
  let rendered = 0;
  const statuses: number[] = [];
  const renders = Array.from({ length: RENDERS }, () =>
    (SMALL
      ? download('order/downloadOrderExcel', demo, {})
      : download('order/downloadMDA2PDByOrder', demo, { ids })
    ).then(
      (r) => {
        rendered++;
        statuses.push(r.status);
        return r;
      },
      () => null, // cut when the server stops at the end
    ),
  );
  await sleep(SMALL ? 500 : 5000); // demo's renders have loaded their orders and hold the pool
  console.log(`demo2 with demo's renders:   ${await demo2Calls(demo2)}; demo's renders finished: ${rendered}`);
  await sleep(5000);
  console.log(`demo2 again 5 s later:       ${await demo2Calls(demo2)}; demo's renders finished: ${rendered}`);
  const refused = statuses.filter((c) => c === 429).length;
  console.log(
    `(demo's renders not waited for; ${((performance.now() - t0) / 1000).toFixed(0)} s in; answered so far: ${statuses.length}, of which 429: ${refused})`,
  );
  void renders;
} finally {
  server.kill('SIGTERM');
  await sleep(1000);
  await dropDatabase().catch((e: unknown) => console.error(`could not drop the bench database: ${String(e)}`));
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
