/**
 * Memory of one 50 MB download from the database file store (issue 27): the server's RSS above
 * idle while the file is read whole (`get`, what downloads did before) and while it is streamed
 * (`stream`, 1 MiB substr pieces). Each read runs in a fresh process, so one does not inherit the
 * other's heap. SQLite by default; PostgreSQL with --pg (TEST_DATABASE_URL names the server; a
 * database of its own is made and dropped).
 *   node bench/file-stream-rss.ts [--pg]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { testConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { DATABASE_STREAM_CHUNK, databaseStorage } from '../src/lib/storage-database.ts';

const MiB = 1024 * 1024;
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};

const child = arg('--child');
if (child) {
  const db = createDatabase(testConfig({ DATABASE_URL: arg('--url')! }).database);
  const store = databaseStorage(db, Number(arg('--chunk') ?? DATABASE_STREAM_CHUNK));
  const started = performance.now();
  // One small read first, so the driver and its pools are part of the baseline, not the figure.
  await store.check();
  global.gc?.();
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      // A client reading at its own pace: the next piece is asked for once this one is taken.
      setImmediate(done);
    },
  });
  if (child === 'whole') {
    const data = await store.get(arg('--key')!);
    bytes = data.length;
  } else {
    await pipeline((await store.stream(arg('--key')!)).body, sink);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  clearInterval(timer);
  console.log(
    JSON.stringify({
      mode: child,
      chunk: arg('--chunk') ?? DATABASE_STREAM_CHUNK,
      bytes,
      ms: Math.round(performance.now() - started),
      peakAboveIdleMiB: Math.round(((peak - idle) / MiB) * 10) / 10,
    }),
  );
  await db.destroy();
  process.exit(0);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-file-stream-'));
let url = path.join(dir, 'bench.sqlite');
let drop: (() => Promise<void>) | undefined;
if (process.argv.includes('--pg')) {
  const server = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_files_${process.pid}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(server);
  u.pathname = `/${name}`;
  url = u.toString();
  drop = async () => {
    const c = new pg.Client({ connectionString: server });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
}
try {
  const db = createDatabase(testConfig({ DATABASE_URL: url }).database);
  await migrateToLatest(db);
  const data = Buffer.alloc(50 * MiB);
  for (let i = 0; i < data.length; i += 4096) data[i] = i & 0xff;
  const { key } = await databaseStorage(db).put(data, 'big.xlsx');
  await db.destroy();
  for (const mode of ['whole', 'stream'])
    process.stdout.write(
      execFileSync(process.execPath, [
        '--expose-gc',
        import.meta.filename,
        '--child',
        mode,
        '--url',
        url,
        '--key',
        key,
      ]),
    );
} finally {
  await drop?.();
  fs.rmSync(dir, { recursive: true, force: true });
}
