/**
 * Where login → home and the first Order List spend their time: one run of bench:console's
 * steps (same throttling, fresh profile) under Chromium's performance trace and JS sampling
 * profiler. Prints the main thread's top-level work by kind (script, style, layout, paint…)
 * and the heaviest scripts and functions by self time, per step; writes the traces to
 * bench/out/*.json (open them in Chrome DevTools' Performance panel).
 * Run after `npm run build -w apps/web`: `node bench/profile.ts` (WEB_DIST=<dir> profiles another build).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type CDPSession } from '@playwright/test';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(root, '../..');
const out = join(root, 'bench/out');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function startServer(dir: string, port: number): Promise<ChildProcess> {
  const server = spawn(join(repo, 'node_modules/.bin/node'), [join(repo, 'apps/server/src/server.ts')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: join(dir, 'bench.sqlite'),
      DATA_DIR: join(dir, 'data'),
      DEMO_SEED: 'true',
      LOG_LEVEL: 'silent',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '1000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (const deadline = Date.now() + 120_000; ;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the server did not start in 120 s');
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  tid: number;
  pid: number;
  args?: { data?: { url?: string; frame?: string } };
}

async function traced(cdp: CDPSession, step: () => Promise<void>) {
  const events: TraceEvent[] = [];
  const collect = (e: { value: unknown[] }) => events.push(...(e.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  await cdp.send('Tracing.start', {
    categories:
      'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,v8,disabled-by-default-v8.compile,blink.user_timing,loading',
    transferMode: 'ReportEvents',
  });
  // The JS profiler's start re-parses every loaded script (CpuProfiler::StartProfiling, some
  // 300 ms at 4× slowdown) inside the measured step: PROFILER=0 for timings without it.
  const sampling = process.env.PROFILER !== '0';
  if (sampling) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const t0 = performance.now();
  await step();
  const wall = performance.now() - t0;
  const { profile } = sampling
    ? ((await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile })
    : { profile: { startTime: 0, endTime: 0, nodes: [], samples: [], timeDeltas: [] } };
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.end');
  await done;
  cdp.off('Tracing.dataCollected', collect);
  return { events, profile, wall };
}

interface CpuProfile {
  startTime: number;
  endTime: number;
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

function summarize(label: string, { events, profile, wall }: Awaited<ReturnType<typeof traced>>, verbose: boolean) {
  // The renderer's main thread: the one running the page's scripts.
  const main = events.find((e) => e.name === 'TracingStartedInBrowser' || e.name === 'CrRendererMain');
  void main;
  const threadOf = new Map<string, number>();
  for (const e of events)
    if (e.name === 'thread_name' && (e as { args?: { name?: string } }).args?.name === 'CrRendererMain')
      threadOf.set(`${e.pid}`, e.tid);
  const complete = events.filter((e) => e.ph === 'X' && e.dur !== undefined && threadOf.get(`${e.pid}`) === e.tid);
  // Top-level work: events not nested inside another on the same thread (RunTask's children).
  const byName = new Map<string, number>();
  const tasks = complete.filter((e) => e.name === 'RunTask');
  const kids = complete.filter((e) => e.name !== 'RunTask');
  kids.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  let end = -1;
  for (const e of kids) {
    if (e.ts < end) continue; // nested
    end = e.ts + e.dur!;
    byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur! / 1000);
  }
  const busy = tasks.reduce((s, e) => s + e.dur! / 1000, 0);
  // Thread time: what the main thread really ran, less sensitive than wall time to other
  // processes on a shared machine.
  const cpu = tasks.reduce((s, e) => s + (e.tdur ?? e.dur!) / 1000, 0);
  if (!verbose) return { wall, busy, cpu };
  console.log(
    `\n== ${label}: ${wall.toFixed(0)} ms wall, main thread busy ${busy.toFixed(0)} ms, thread time ${cpu.toFixed(0)} ms`,
  );
  for (const [n, ms] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`  ${n.padEnd(28)} ${ms.toFixed(0).padStart(6)} ms`);

  // JS self time by script and by function.
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + profile.timeDeltas[i] / 1000));
  const byUrl = new Map<string, number>();
  const byFn = new Map<string, number>();
  for (const n of profile.nodes) {
    const ms = self.get(n.id) ?? 0;
    const url = n.callFrame.url.split('/').pop() || `(${n.callFrame.functionName || 'native'})`;
    byUrl.set(url, (byUrl.get(url) ?? 0) + ms);
    const fn = `${n.callFrame.functionName || '(anon)'} ${url}:${n.callFrame.lineNumber}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + ms);
  }
  console.log('  -- JS self time by script');
  for (const [n, ms] of [...byUrl].sort((a, b) => b[1] - a[1]).slice(0, 10))
    console.log(`  ${n.padEnd(40)} ${ms.toFixed(0).padStart(6)} ms`);
  console.log('  -- by function');
  for (const [n, ms] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`  ${n.slice(0, 60).padEnd(60)} ${ms.toFixed(0).padStart(6)} ms`);
  return { wall, busy, cpu };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'console-profile-'));
  const port = await freePort();
  const server = await startServer(dir, port);
  const base = `http://127.0.0.1:${port}`;
  const runs = Number(process.env.RUNS ?? 1);
  const figures: Record<string, { wall: number; busy: number; cpu: number }[]> = { login: [], orders: [] };
  try {
    for (let i = 0; i < runs; i++) {
      const r = await oneRun(base, i === runs - 1);
      figures.login.push(r.login);
      figures.orders.push(r.orders);
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [k, rs] of Object.entries(figures)) {
    const f = (key: 'wall' | 'busy' | 'cpu') =>
      `${key} ${median(rs.map((r) => r[key])).toFixed(0)} ms (${rs.map((r) => r[key].toFixed(0)).join(', ')})`;
    console.log(`${k.padEnd(7)} median of ${rs.length}: ${f('wall')}; ${f('busy')}; ${f('cpu')}`);
  }
}

async function oneRun(base: string, verbose: boolean) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(`${base}/home/login`);
    await page.getByTestId('login-name').fill('demo');
    await page.getByTestId('login-password').fill('Demo@2026');
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    const login = await traced(cdp, async () => {
      await page.getByTestId('login-submit').click();
      await page.locator('[data-testid="status-counts"] .ant-statistic').first().waitFor({ state: 'visible' });
    });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    const orders = await traced(cdp, async () => {
      await page.locator('.quick-link[data-route="order.list"]').click();
      await page
        .locator('[data-tab-view="/order/list"] .ant-table-tbody tr.ant-table-row')
        .nth(19)
        .waitFor({ state: 'visible' });
    });
    if (verbose) {
      mkdirSync(out, { recursive: true });
      writeFileSync(join(out, 'trace-login.json'), JSON.stringify({ traceEvents: login.events }));
      writeFileSync(join(out, 'trace-orders.json'), JSON.stringify({ traceEvents: orders.events }));
      writeFileSync(join(out, 'login.cpuprofile'), JSON.stringify(login.profile));
      writeFileSync(join(out, 'orders.cpuprofile'), JSON.stringify(orders.profile));
    }
    return {
      login: summarize('login → home', login, verbose),
      orders: summarize('first Order List', orders, verbose),
    };
  } finally {
    await browser.close();
  }
}

await main();
