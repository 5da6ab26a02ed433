import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../cluster/pgbouncer.ts';

/**
 * The failover drill's database (issue 38 item 8), all real processes and nothing of the product:
 * a PostgreSQL primary and a streaming standby made with Debian's own binaries (initdb,
 * pg_basebackup -R), in data folders under the system's temporary folder, on free loopback ports;
 * the standby named in the primary's `synchronous_standby_names`, so every commit (PostgreSQL's
 * default `synchronous_commit = on`) waits for it — the synchronous variant of
 * docs/decisions/2026-12-06-failover-safe-numbers-and-mail-retry.md. In front, the database's
 * "virtual IP": an haproxy TCP front whose backend is moved from the primary to the standby
 * through haproxy's runtime API (a stats socket), as a VIP or a DNS name moves in production.
 *
 * PostgreSQL refuses to run as root: its binaries run as the `postgres` user (runuser), as .ci/run
 * starts its own server.
 */
export function pgBinDir(): string {
  const env = process.env.PG_BIN_DIR;
  if (env) return env;
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base)
    ? fs
        .readdirSync(base)
        .filter((v) => fs.existsSync(path.join(base, v, 'bin/pg_ctl')))
        .sort((a, b) => Number(a) - Number(b))
    : [];
  if (!versions.length)
    throw new Error('No PostgreSQL binaries in /usr/lib/postgresql/*/bin: apt-get install postgresql');
  return path.join(base, versions.at(-1)!, 'bin');
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary as `postgres` (when we are root; as ourselves otherwise). */
function pgRun(bin: string, args: string[]): string {
  const file = path.join(pgBinDir(), bin);
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  return execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
}

export interface PgNode {
  name: 'primary' | 'standby';
  port: number;
  dataDir: string;
  /** The postmaster's pid (first line of postmaster.pid). */
  pid: () => number;
  /** The server's log. */
  log: () => string;
}

export interface PgPair {
  primary: PgNode;
  standby: PgNode;
  /** The standby's name in `synchronous_standby_names` and `pg_stat_replication`. */
  standbyName: string;
  /** Promotes the standby (pg_ctl promote, waiting until it accepts writes). */
  promote: () => void;
  /** Stops the standby alone (pg_ctl stop -m fast, waiting until it is down): a replica gone. */
  stopStandby: () => void;
  /** Stops both (what is left of them), and removes the data folders. */
  stop: () => Promise<void>;
}

const STANDBY = 'standby1';

/**
 * Starts the primary, takes the base backup, starts the standby. `synchronous: false` (the
 * read-replica test's): the standby is not named in `synchronous_standby_names`, so commits do
 * not wait for it and it can be stopped while the primary works on.
 */
export async function startPgPair(opts: { synchronous?: boolean } = {}): Promise<PgPair> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'failover-pg-'));
  fs.chmodSync(base, 0o755);
  if (asRoot) execFileSync('chown', ['postgres:postgres', base]);
  const node = (name: PgNode['name'], port: number): PgNode => {
    const dataDir = path.join(base, name);
    const logFile = path.join(base, `${name}.log`);
    return {
      name,
      port,
      dataDir,
      pid: () => Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]),
      log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''),
    };
  };
  const primary = node('primary', await freePort());
  const standby = node('standby', await freePort());
  // Settings on the command line, not in postgresql.conf: the base backup copies the files, and a
  // promoted standby that still named itself as its own synchronous standby would wait for ever.
  // fsync off: the drill kills processes, never the machine, so the OS keeps every write; the
  // standby's copy comes through streaming, not the disk.
  const common = `-c listen_addresses=127.0.0.1 -k ${base} -c fsync=off -c full_page_writes=off`;
  const start = (n: PgNode, extra = '') =>
    pgRun('pg_ctl', [
      '-D',
      n.dataDir,
      '-l',
      path.join(base, `${n.name}.log`),
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${n.port} ${common} ${extra}`,
      'start',
    ]);

  pgRun('initdb', ['-D', primary.dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C']);
  start(primary, opts.synchronous === false ? '' : `-c synchronous_standby_names='FIRST 1 (${STANDBY})'`);
  pgRun('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    standby.dataDir,
    '-X',
    'stream',
    '-R',
  ]);
  // -R wrote primary_conninfo without a name; the one synchronous_standby_names lists is added.
  fs.appendFileSync(
    path.join(standby.dataDir, 'postgresql.auto.conf'),
    `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=${STANDBY}'\n`,
  );
  start(standby);

  const pair: PgPair = {
    primary,
    standby,
    standbyName: STANDBY,
    promote: () => void pgRun('pg_ctl', ['-D', standby.dataDir, '-w', '-t', '60', 'promote']),
    stopStandby: () => void pgRun('pg_ctl', ['-D', standby.dataDir, '-w', '-t', '60', '-m', 'fast', 'stop']),
    stop: async () => {
      for (const n of [standby, primary]) {
        try {
          pgRun('pg_ctl', ['-D', n.dataDir, '-m', 'immediate', 'stop']);
        } catch {
          /* not running (the primary was killed) */
        }
      }
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
  return pair;
}

/** The processes whose parent is `pid` (a postmaster's backends, to end any it leaves behind). */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      // "pid (comm) state ppid …": the name may hold spaces, the part after its ')' does not.
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

export interface VirtualIp {
  /** The address the instances are given (`DATABASE_URL`'s host and port). */
  port: number;
  /** Moves the front from the primary to the standby and cuts what it still holds to the primary. */
  moveToStandby: () => Promise<void>;
  /** What the runtime API answered to `show servers state` (for the drill's log). */
  state: () => Promise<string>;
  stop: () => Promise<void>;
}

/**
 * The database's address: haproxy in TCP mode, the primary active and the standby in
 * maintenance; moved by the runtime API (no reload, no restart of haproxy). No health checks: a
 * check cannot tell a primary from a standby that accepts connections; the move is the
 * failover's decision, as a cluster manager's would be.
 */
export async function startVirtualIp(pair: PgPair): Promise<VirtualIp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'failover-vip-'));
  const socket = path.join(dir, 'admin.sock');
  const port = await freePort();
  const cfg = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(
    cfg,
    [
      'global',
      '  maxconn 512',
      `  stats socket ${socket} mode 600 level admin`,
      'defaults',
      '  mode tcp',
      '  timeout connect 2s',
      // A pooled connection sits idle between queries: longer than any idle time of the pools.
      '  timeout client 1h',
      '  timeout server 1h',
      'frontend database',
      `  bind 127.0.0.1:${port}`,
      '  default_backend postgres',
      'backend postgres',
      `  server primary 127.0.0.1:${pair.primary.port}`,
      `  server standby 127.0.0.1:${pair.standby.port} disabled`,
      '',
    ].join('\n'),
  );
  execFileSync('haproxy', ['-c', '-q', '-f', cfg]);
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', cfg], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  for (let i = 0; i < 100 && !fs.existsSync(socket); i++) await new Promise((r) => setTimeout(r, 50));
  if (!fs.existsSync(socket)) throw new Error(`haproxy (database front) did not start: ${err}`);
  const api = (command: string) =>
    new Promise<string>((resolve, reject) => {
      const c = net.createConnection(socket);
      let out = '';
      c.on('data', (d) => (out += d.toString()));
      c.on('end', () => resolve(out));
      c.on('error', reject);
      c.end(`${command}\n`);
    });
  return {
    port,
    moveToStandby: async () => {
      for (const command of [
        'set server postgres/primary state maint',
        'shutdown sessions server postgres/primary',
        'set server postgres/standby state ready',
      ]) {
        const out = (await api(command)).trim();
        if (out) throw new Error(`haproxy runtime API, "${command}": ${out}`);
      }
    },
    state: () => api('show servers state postgres'),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
