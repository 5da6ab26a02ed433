import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { allCalls, type CallDef, type CallRequest, declaredStatuses, FILE_TYPES } from '@console/contract';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, inject, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Config, testConfig } from '../src/config.ts';
import { createDatabase, type Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { StoredFileMissing, type Storage } from '../src/lib/storage.ts';
import { createStorage } from '../src/lib/storage-config.ts';
import { DEMO_PASSWORD, seedDemo } from '../src/seed/demo.ts';
import { isMessageKey, translate } from '../src/lib/messages.ts';

/**
 * A real app on a freshly migrated database for one test file: SQLite in a temp
 * folder by default; a new PostgreSQL database when TEST_DATABASE_URL is set
 * (CI runs the suite both ways). Demo data is seeded unless `seed: false`.
 */
export interface Harness {
  app: FastifyInstance;
  db: Database;
  dataDir: string;
  /** The app's file store: a folder on SQLite, the database on PostgreSQL (FILE_STORE's defaults). */
  storage: Storage;
  /**
   * Another app on this database, data folder and store: what a restarted server finds. `opts`
   * reach buildApp (the commit's test hooks). Closed after the file, before the database.
   */
  restarted(opts?: Partial<Parameters<typeof buildApp>[0]>): Promise<FastifyInstance>;
  /** Whether the store holds bytes under this key. */
  stored(key: string): Promise<boolean>;
  /** The configuration the app was built with (its database is what a second instance shares). */
  config: Config;
  clock: { now: Date };
  /** The database's URL (a SQLite file or PostgreSQL), for a second app on it (secondInstance). */
  databaseUrl: string;
  /** Logs in and returns the access token. */
  login(name: string, password?: string): Promise<string>;
  /** POST /api/<path> with JSON; returns status and parsed body. */
  post(
    path: string,
    body: unknown,
    token?: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  /** A typed call through the contract (plain calls only; AES calls use aesCall). */
  call<C extends CallDef>(def: C, body: CallRequest<C>, token: string): Promise<{ status: number; body: any }>;
}

export async function createHarness(
  opts: {
    seed?: boolean;
    env?: Record<string, string>;
    now?: Date;
    storage?: Storage;
    /** Wraps the store the settings name (a test that watches or rewrites what is stored). */
    wrapStorage?: (store: Storage) => Storage;
  } = {},
): Promise<Harness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-test-'));
  const { url: databaseUrl, drop: dropPg } = await emptyDatabase(dataDir, opts.seed !== false ? seededTemplate() : '');
  const config = testConfig({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dataDir, 'no-web'),
    ...opts.env,
  });
  const db = createDatabase(config.database);
  await migrateToLatest(db);
  if (opts.seed !== false) await seedDemo(db, { orders: 60 });
  const clock = { now: opts.now ?? new Date() };
  const storage = opts.storage ?? (opts.wrapStorage ?? ((x: Storage) => x))(createStorage(config, db));
  const app = await buildApp({ config, db, clock: () => clock.now, storage });
  await app.ready();
  // What server.ts does once it listens: jobs start after the app is ready.
  await app.jobs.start();

  const restartedApps: FastifyInstance[] = [];
  afterAll(async () => {
    for (const a of restartedApps) await a.close();
    await app.close();
    await db.destroy();
    await dropPg?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const post: Harness['post'] = async (p, body, token, headers = {}) => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/${p}`,
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
    let parsed: unknown = res.body;
    try {
      parsed = res.json();
    } catch {
      /* a blob */
    }
    checkErrorKey(p, res.statusCode, parsed, res.headers['content-type']);
    return { status: res.statusCode, body: parsed, headers: res.headers };
  };
  return {
    app,
    db,
    dataDir,
    storage,
    async restarted(extra = {}) {
      const again = await buildApp({ config, db, clock: () => clock.now, storage, ...extra });
      await again.ready();
      await again.jobs.start();
      restartedApps.push(again);
      return again;
    },
    stored: (key) =>
      storage.get(key).then(
        () => true,
        (e: unknown) => {
          if (e instanceof StoredFileMissing) return false;
          throw e;
        },
      ),
    config,
    clock,
    databaseUrl,
    post,
    async login(name, password = DEMO_PASSWORD) {
      const r = await post('login', { name, password });
      if (r.status !== 200) throw new Error(`login ${name} failed: ${JSON.stringify(r.body)}`);
      return r.body.data.access_token as string;
    },
    call: (def, body, token) => post(def.path, body, token),
  };
}

/**
 * The PostgreSQL run's migrated and seeded template (test/pg-template.global.ts), or '' when there
 * is none or it was seeded on another UTC day (the seed dates its rows from its own today).
 */
function seededTemplate(): string {
  const t = inject('pgTemplate');
  return t?.name && t.day === new Date().toISOString().slice(0, 10) ? t.name : '';
}

/**
 * An empty database for one test file: a SQLite file in `dir`, or a new PostgreSQL database when
 * TEST_DATABASE_URL is set (a copy of `template` when given: migrating and seeding it again finds
 * the work done); `drop` removes the PostgreSQL one (the folder's owner removes the file).
 */
export async function emptyDatabase(dir: string, template = ''): Promise<{ url: string; drop?: () => Promise<void> }> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (!pgUrl) return { url: path.join(dir, 'test.sqlite') };
  const name = `t_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  // A test database need not survive a crash of the server: commits stop waiting for the disk's
  // flush (test time only; the semantics of transactions and locks are unchanged).
  await admin.query(`alter database ${name} set synchronous_commit = off`);
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

const callsByPath = new Map(allCalls.map((c) => [c.path, c]));

/**
 * Every answer of every test is one its call declares (issue 30): a status from the contract's
 * `declaredStatuses` (what the OpenAPI document publishes), a file of the Content-Type its blob call
 * names; and every error answer carries a stable `key` from a message catalogue (clients match on
 * keys, never on texts), a 500 never the failure's own text. `path` is the call's path, with or
 * without `/api/`; paths that are no call (health, docs, webhooks) are checked for keys only.
 */
export function checkErrorKey(path: string, status: number, body: unknown, contentType?: string) {
  const call = callsByPath.get(path.replace(/^\/api\//, ''));
  if (call && !declaredStatuses(call).includes(status)) {
    throw new Error(
      `${path} answered ${status}, which its call does not declare (contract: answers, statuses.ts): ${JSON.stringify(body).slice(0, 200)}`,
    );
  }
  if (call?.kind === 'blob' && status === 200 && contentType !== undefined) {
    const type = contentType.split(';')[0]!.trim();
    if (!FILE_TYPES[call.file ?? 'xlsx'].includes(type))
      throw new Error(`${path} answered a file of type ${type}, which its call does not declare (contract: file)`);
  }
  if (status < 400 || !body || typeof body !== 'object' || !('code' in body)) return;
  const b = body as { key?: unknown; message?: unknown };
  if (typeof b.key !== 'string' || !isMessageKey(b.key)) {
    throw new Error(`${path} answered ${status} without a catalogued key: ${JSON.stringify(body).slice(0, 200)}`);
  }
  if (
    status >= 500 &&
    b.key === 'internal' &&
    b.message !== translate('en', 'internal') &&
    b.message !== translate('zh-CN', 'internal')
  ) {
    throw new Error(`${path} answered 500 with its own text: ${String(b.message).slice(0, 200)}`);
  }
}

/** Another instance of the product, as a second machine runs it: see `secondInstance`. */
export interface Instance {
  app: FastifyInstance;
  db: Database;
  dataDir: string;
  config: Config;
}

/**
 * A second app on the harness's database, as another machine behind the load balancer runs it:
 * its own DATA_DIR, its own connections, and its own copy of every server module (a fresh module
 * graph, so per-process state such as counters and caches is not shared with the first app, as it
 * is not between two processes). It shares the harness's clock. Closed after the file.
 */
export async function secondInstance(
  h: Harness,
  opts: {
    env?: Record<string, string>;
    /** Wraps the store the settings name, as createHarness's. */
    wrapStorage?: (store: Storage) => Storage;
  } = {},
): Promise<Instance> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-test-2-'));
  vi.resetModules();
  const fresh = {
    app: (await import('../src/app.ts')) as typeof import('../src/app.ts'),
    config: (await import('../src/config.ts')) as typeof import('../src/config.ts'),
    database: (await import('../src/db/database.ts')) as typeof import('../src/db/database.ts'),
    storage: (await import('../src/lib/storage-config.ts')) as typeof import('../src/lib/storage-config.ts'),
  };
  const url = h.config.database.dialect === 'postgres' ? h.config.database.url : h.config.database.file;
  const config = fresh.config.testConfig({
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dataDir, 'no-web'),
    ...opts.env,
  });
  const db = fresh.database.createDatabase(config.database);
  const storage = opts.wrapStorage?.(fresh.storage.createStorage(config, db));
  const app = await fresh.app.buildApp({ config, db, clock: () => h.clock.now, storage });
  await app.ready();
  await app.jobs.start();
  afterAll(async () => {
    await app.close();
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { app, db, dataDir, config };
}

/** A multipart body by hand (one file plus text fields). */
export function multipart(
  fields: Record<string, string>,
  file?: { name: string; data: Buffer; type?: string },
  defaultType = 'application/octet-stream',
) {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? defaultType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** What an HTTP call answered: its status, its JSON (or text when it is not JSON) and its size. */
export interface HttpAnswer {
  status: number;
  body: any;
  /** Bytes of the answer's body as sent. */
  bytes: number;
}

/**
 * Calls to a server over real HTTP (not app.inject): what concurrency tests need to send requests
 * truly in parallel, and what benchmarks use against a server in this or another process.
 * `base` ends in `/api`.
 */
export function httpClient(base: string) {
  const answer = async (r: Response): Promise<HttpAnswer> => {
    const raw = Buffer.from(await r.arrayBuffer());
    let body: unknown = raw.toString('utf8');
    try {
      body = JSON.parse(body as string);
    } catch {
      /* not JSON: the text */
    }
    checkErrorKey(new URL(r.url).pathname, r.status, body, r.headers.get('content-type') ?? undefined);
    return { status: r.status, body, bytes: raw.length };
  };
  const auth = (token?: string): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});
  /** POST /api/<path> with a JSON body. */
  const post = async (path: string, body: unknown, token?: string, headers: Record<string, string> = {}) =>
    answer(
      await fetch(`${base}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth(token), ...headers },
        body: JSON.stringify(body),
      }),
    );
  return {
    base,
    post,
    /** POST /api/<path> with a multipart form: text fields and one file. */
    upload: async (
      path: string,
      token: string,
      file: { name: string; data: Buffer },
      fields: Record<string, string> = {},
    ) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      form.set('file', new Blob([new Uint8Array(file.data)]), file.name);
      return answer(await fetch(`${base}/${path}`, { method: 'POST', headers: auth(token), body: form }));
    },
    /** Logs in; the access token. */
    async login(name: string, password = DEMO_PASSWORD): Promise<string> {
      const r = await post('login', { name, password });
      if (r.status !== 200) throw new Error(`login ${name} failed: ${JSON.stringify(r.body)}`);
      return r.body.data.access_token as string;
    },
    /** Waits until GET /api/health answers (a server starting in another process). */
    async ready(timeoutMs = 120_000) {
      for (const end = Date.now() + timeoutMs; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
        if (
          await fetch(`${base}/health`).then(
            (r) => r.ok,
            () => false,
          )
        )
          return;
      }
      throw new Error(`${base} did not start`);
    },
  };
}
export type HttpClient = ReturnType<typeof httpClient>;

/** Makes `app` listen on a free loopback port; calls to it over real HTTP. */
export async function listening(app: FastifyInstance): Promise<HttpClient> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return httpClient(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api`);
}
