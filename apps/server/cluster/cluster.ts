import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sealRequest, openResponse } from '../test/aes-client.ts';
import { DEMO_PASSWORD } from '../src/seed/demo.ts';

/**
 * The cluster suite's parts, all real processes: two servers (`node apps/server/src/server.ts`, as
 * production starts them) on one fresh PostgreSQL database, each with a DATA_DIR of its own,
 * behind Debian's haproxy (round robin, readiness checks on /api/ready, the chosen server named in
 * `X-Served-By`). Nothing here is in the product.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const nodeBin = path.join(root, 'node_modules/.bin/node');
const serverMain = path.join(root, 'apps/server/src/server.ts');

/** The PostgreSQL server CI uses (`.ci/run` passes it as TEST_DATABASE_URL). */
export const pgAdminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `cluster_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(pgAdminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: pgAdminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface ServerProcess {
  name: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Everything the process wrote (JSON log lines and the start banner), all runs appended. */
  log: () => string;
  /** Resolves with the exit code or signal. */
  exited: Promise<number | string | null>;
}

/** Starts one instance; `waitReady` polls its own /api/ready. */
export function startServer(name: string, port: number, env: Record<string, string>, dataDir?: string): ServerProcess {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `cluster-${name}-`));
  // In its data folder, so a restart appends and a new run starts clean.
  const logFile = path.join(dir, 'cluster-server.log');
  const out = fs.openSync(logFile, 'a');
  const child = spawn(nodeBin, [serverMain], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dir,
      WEB_DIST: path.join(dir, 'no-web'),
      DEMO_SEED: 'true',
      LOG_LEVEL: 'info',
      TRUST_PROXY: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const exited = new Promise<number | string | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal)),
  );
  return { name, port, dataDir: dir, child, log: () => fs.readFileSync(logFile, 'utf8'), exited };
}

export async function waitReady(s: ServerProcess, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  let exit: number | string | null | undefined;
  void s.exited.then((e) => (exit = e));
  while (Date.now() < until) {
    if (exit !== undefined) throw new Error(`${s.name} exited (${exit}):\n${s.log().slice(-3000)}`);
    try {
      const r = await fetch(`http://127.0.0.1:${s.port}/api/ready`);
      if (r.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await sleep(200);
  }
  throw new Error(`${s.name} not ready in ${timeoutMs} ms:\n${s.log().slice(-3000)}`);
}

/** SIGTERM (a deploy's stop) and wait for the process to end. */
export async function stopServer(s: ServerProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return s.exited;
  s.child.kill(signal);
  return s.exited;
}

/** The haproxy configuration the suite runs (README "Several instances" shows it trimmed). */
export function haproxyConfig(port: number, servers: { name: string; port: number }[]) {
  return [
    'global',
    '  maxconn 256',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 120s',
    '  timeout server 120s',
    // A request whose connection failed (the instance stopped listening) goes to another server.
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response',
    // One request per server connection: an instance that stops never closes a connection
    // haproxy is about to reuse.
    '  option http-server-close',
    // The client's address for the instances (login throttling is per address): they trust
    // the balancer's X-Forwarded-For through TRUST_PROXY.
    '  option forwardfor',
    'frontend console',
    `  bind 127.0.0.1:${port}`,
    '  default_backend instances',
    'backend instances',
    '  balance roundrobin',
    '  option httpchk GET /api/ready',
    '  http-check expect status 200',
    // Checks get 3 s (the readiness call's own limit): on a loaded machine a slow answer is not a down server.
    '  timeout check 3s',
    '  default-server inter 1s fall 2 rise 2',
    '  http-response set-header X-Served-By %s',
    ...servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check`),
    '',
  ].join('\n');
}

export function startHaproxy(port: number, servers: { name: string; port: number }[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-haproxy-'));
  const cfg = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(cfg, haproxyConfig(port, servers));
  execFileSync('haproxy', ['-c', '-q', '-f', cfg]);
  const child = spawn('haproxy', ['-db', '-f', cfg], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    url: `http://127.0.0.1:${port}/api`,
    stderr: () => err,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  body: any;
  bytes: Buffer;
  servedBy: string | null;
  type: string | null;
}

/** A user's calls through the balancer, each telling which instance answered. */
export function client(base: string) {
  const answer = async (r: Response): Promise<Answer> => {
    const bytes = Buffer.from(await r.arrayBuffer());
    let body: unknown = null;
    if (r.headers.get('content-type')?.includes('json')) body = JSON.parse(bytes.toString('utf8'));
    return {
      status: r.status,
      body,
      bytes,
      servedBy: r.headers.get('x-served-by'),
      type: r.headers.get('content-type'),
    };
  };
  const headers = (token?: string, extra: Record<string, string> = {}) => ({
    'accept-language': 'en',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...extra,
  });
  const post = async (p: string, body: unknown, token?: string, extra: Record<string, string> = {}) =>
    answer(
      await fetch(`${base}/${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers(token, extra) },
        body: JSON.stringify(body),
      }),
    );
  return {
    post,
    /** A sealed call (`aes: 1`), its answer opened. */
    async aes(p: string, body: unknown, token: string) {
      const r = await post(p, sealRequest(token, body), token, { aes: '1' });
      const data = r.status === 200 && r.body?.iv ? openResponse(token, r.body) : r.body?.data;
      return { ...r, data: data as any };
    },
    async upload(p: string, token: string, file: { name: string; data: Buffer }, fields: Record<string, string> = {}) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      form.set('file', new Blob([new Uint8Array(file.data)]), file.name);
      return answer(await fetch(`${base}/${p}`, { method: 'POST', headers: headers(token), body: form }));
    },
    async login(name: string) {
      const r = await post('login', { name, password: DEMO_PASSWORD });
      if (r.status !== 200) throw new Error(`login ${name}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.data.access_token as string;
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until every pg-boss job of `kind` is completed, failed or cancelled: no run of it is still
 * to come, so what its runs wrote is final. What a test asserts on instead of sleeping and seeing
 * nothing more happen (issue 37).
 */
export async function queueSettled(sql: pg.Client, kind: string, timeoutMs = 30_000) {
  for (const end = Date.now() + timeoutMs; ; await sleep(100)) {
    const { rows } = await sql.query<{ open: string; all: string }>(
      `select count(*) filter (where state not in ('completed', 'failed', 'cancelled')) as open, count(*) as all
       from pgboss.job where name = $1`,
      [kind],
    );
    if (Number(rows[0]!.all) > 0 && Number(rows[0]!.open) === 0) return;
    if (Date.now() > end) throw new Error(`timed out waiting for the jobs of ${kind} to settle`);
  }
}

/** The OS process holding a TCP connection from this local port (`ss`, as root or as its owner). */
export function pidOfLocalPort(port: number): number | null {
  const out = execFileSync('ss', ['-tnpH', `sport = :${port}`]).toString();
  const m = /pid=(\d+)/.exec(out);
  return m ? Number(m[1]) : null;
}
