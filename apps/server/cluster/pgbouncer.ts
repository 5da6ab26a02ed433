import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sleep } from './cluster.ts';

/**
 * Debian's PgBouncer (`apt-get install pgbouncer`, installed by .ci/run and
 * scripts/test-cluster.sh) in front of the suite's PostgreSQL, for the cluster tests: the
 * settings the README's "Several instances" gives, trust auth, on a free loopback port. Nothing
 * here is in the product.
 */
export const PGBOUNCER_BIN = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

/** A loopback port nobody listens on now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The ini the README shows, for PostgreSQL at `server` (a postgres:// URL) and database `db`. */
export function pgbouncerIni(opts: { port: number; server: string; db: string; authFile: string }): string {
  const target = new URL(opts.server);
  return [
    '[databases]',
    // The two limits the instances send as startup parameters, set on PgBouncer's own server
    // connections instead (it drops the instances' ones: ignore_startup_parameters below).
    `${opts.db} = host=${target.hostname} port=${target.port || 5432} dbname=${opts.db} ` +
      `connect_query='set statement_timeout = 300000; set idle_in_transaction_session_timeout = 60000'`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${opts.port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${opts.authFile}`,
    'pool_mode = transaction',
    'ignore_startup_parameters = statement_timeout,idle_in_transaction_session_timeout',
    'max_client_conn = 500',
    'default_pool_size = 20',
    '',
  ].join('\n');
}

export interface PgBouncer {
  /** `postgres://user@127.0.0.1:port/db` through the pooler, the user of `server`. */
  url: string;
  port: number;
  /** What PgBouncer logged (its login lines show who connected through it). */
  log: () => string;
  stop: () => Promise<void>;
}

/** Starts PgBouncer in transaction pooling mode for database `db` on `server`'s PostgreSQL. */
export async function startPgBouncer(server: string, db: string): Promise<PgBouncer> {
  if (!fs.existsSync(PGBOUNCER_BIN))
    throw new Error(`${PGBOUNCER_BIN} is missing: apt-get install pgbouncer (or set PGBOUNCER_BIN)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-pgbouncer-'));
  // PgBouncer refuses to run as root: it is told to switch to nobody, who must read its files.
  fs.chmodSync(dir, 0o755);
  const user = decodeURIComponent(new URL(server).username || 'postgres');
  const authFile = path.join(dir, 'users.txt');
  fs.writeFileSync(authFile, `"${user}" ""\n`, { mode: 0o644 });
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  fs.writeFileSync(ini, pgbouncerIni({ port, server, db, authFile }), { mode: 0o644 });
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(PGBOUNCER_BIN, [...(asRoot ? ['-u', 'nobody'] : []), ini], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  // Up once it says it listens (it logs that before accepting).
  for (let i = 0; i < 100 && !out.includes('process up'); i++) {
    if (child.exitCode !== null) break;
    await sleep(100);
  }
  if (!out.includes('process up')) {
    child.kill('SIGKILL');
    throw new Error(`PgBouncer did not start:\n${out}`);
  }
  return {
    url: `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${db}`,
    port,
    log: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
