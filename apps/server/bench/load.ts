/**
 * What the list benchmarks (bench/orders.ts, bench/items.ts) share: a fresh database to seed,
 * the load generator run in its own process (bench/orders-load.ts), the server's CPU per
 * request beside it, and one line per result.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import type { Database } from '../src/db/database.ts';
import { seedDemo } from '../src/seed/demo.ts';

/** What bench/orders-load.ts reports of one run. */
export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  bytes: number;
  writes: { done: number; received: number; failed: number; p99: number } | null;
}

/**
 * A new database: a PostgreSQL database created beside `pgUrl` (dropped by `drop`), else the
 * SQLite file `sqliteFile`.
 */
export async function benchDatabase(
  pgUrl: string | undefined,
  sqliteFile: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!pgUrl) return { url: sqliteFile, drop: async () => undefined };
  // Unique per call: a `--pg` run makes several in one process, and other runs may share the server.
  const name = `bench_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(pgUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** 50 connections on `url` for `seconds`, from another process so the server keeps its event loop. */
export function runLoad(url: string, seconds: number, mixFile: string | null, writerFile?: string) {
  return new Promise<LoadResult>((resolve, reject) => {
    const args = [path.join(import.meta.dirname, 'orders-load.ts'), url, String(seconds), mixFile ?? '-'];
    if (writerFile) args.push(writerFile);
    const p = spawn(process.execPath, args);
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', () => undefined);
    p.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`load generator exited ${code}`)),
    );
  });
}

/**
 * runLoad, and the server's own CPU per request (this process's main thread) logged beside it
 * and returned: unlike throughput it hardly moves with what else runs on the machine.
 */
export async function measureLoad(
  log: (s: string) => void,
  label: string,
  ...args: Parameters<typeof runLoad>
): Promise<LoadResult & { cpuMicros: number }> {
  const c0 = process.threadCpuUsage();
  const r = await runLoad(...args);
  const c = process.threadCpuUsage(c0);
  const cpuMicros = (c.user + c.system) / Math.max(1, r.requests);
  log(`server CPU per ${label} request: ${cpuMicros.toFixed(0)} µs`);
  return { ...r, cpuMicros };
}

/** One result as a line: throughput, latency, failures, average answer size. */
export const formatLoad = (name: string, r: LoadResult, width = 22) =>
  `${name.padEnd(width)} ${String(Math.round(r.rps)).padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   max ${r.max} ms   non-2xx ${r.non2xx}   errors ${r.errors}   avg ${Math.round(r.bytes / Math.max(1, r.requests))} B` +
  (r.writes
    ? `\n${''.padEnd(width)} writer: ${r.writes.done} scans (${r.writes.received} received, ${r.writes.failed} failed), p99 ${r.writes.p99} ms`
    : '');

/** Four more customers, each with a user (password as demo's), beside DEMO and DEMO2. */
export const EXTRA_CUSTOMERS = ['BENCH3', 'BENCH4', 'BENCH5', 'BENCH6'];

/** The demo accounts (no orders) and the extra customers the benchmarks' mixes log in as. */
export async function seedBenchCustomers(db: Database) {
  await seedDemo(db, { orders: 0 });
  const demoUser = await db.selectFrom('users').selectAll().where('name', '=', 'demo').executeTakeFirstOrThrow();
  const at = new Date().toISOString();
  for (const code of EXTRA_CUSTOMERS) {
    const c = await db
      .insertInto('customers')
      .values({ code, name: code, agent_user_id: null, created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('users')
      .values({
        name: code.toLowerCase(),
        display_name: code,
        password_hash: demoUser.password_hash,
        role: 'customer',
        customer_id: c.id,
        created_at: at,
        password_changed_at: at,
      })
      .execute();
  }
}
