/**
 * Load generator for bench/orders.ts and bench/items.ts, run in its own process so it does
 * not share the server's event loop: autocannon with 50 connections. With a mix file each
 * request is a generated user and filter (bench/orders-mix.ts, or the module the file names
 * as `generator`, e.g. bench/items-mix.ts; sealed in the AES envelope when it says `aes`, as
 * the console sends it); with a writer file it also scans parcels at a fixed rate meanwhile
 * (each scan is a commit, as on a warehouse floor), and reports them.
 *   node bench/orders-load.ts <url> <seconds> <mix.json | -> [writer.json]
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { sealRequest } from '../test/aes-client.ts';
import { mix as ordersMix } from './orders-mix.ts';

const [url, seconds, mixFile, writerFile] = process.argv.slice(2) as [string, string, string, string | undefined];
type Generator = (cfg: any) => () => { token: string; body: unknown };
const mixConfig =
  mixFile === '-' ? null : (JSON.parse(fs.readFileSync(mixFile, 'utf8')) as { generator?: string; aes?: boolean });
const generator: Generator | null = !mixConfig
  ? null
  : mixConfig.generator
    ? ((await import(`./${mixConfig.generator}`)) as { mix: Generator }).mix
    : ordersMix;
const next = mixConfig && generator ? generator(mixConfig) : null;
const aes = mixConfig?.aes === true;

interface Writer {
  url: string;
  token: string;
  perSecond: number;
  waybills: string[];
}
const writer = writerFile ? (JSON.parse(fs.readFileSync(writerFile, 'utf8')) as Writer) : null;
const writes = { done: 0, received: 0, failed: 0, latencies: [] as number[] };
let timer: NodeJS.Timeout | undefined;
const inFlight = new Set<Promise<void>>();
if (writer) {
  let i = 0;
  timer = setInterval(() => {
    const code = writer.waybills[i++ % writer.waybills.length];
    const t = performance.now();
    const p: Promise<void> = fetch(writer.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${writer.token}` },
      body: JSON.stringify({ code }),
    })
      .then(async (r) => {
        const j = (await r.json()) as { data?: { outcome?: string } };
        writes.done++;
        if (j.data?.outcome === 'received') writes.received++;
        if (r.status !== 200) writes.failed++;
        writes.latencies.push(performance.now() - t);
      })
      .catch(() => void writes.failed++)
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  }, 1000 / writer.perSecond);
}

const result = await autocannon({
  url,
  connections: 50,
  duration: Number(seconds),
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  requests: [
    {
      setupRequest: (req: any) => {
        if (!next) return { ...req, body: '{}' };
        const r = next();
        return {
          ...req,
          headers: { ...req.headers, authorization: `Bearer ${r.token}`, ...(aes ? { aes: '1' } : {}) },
          body: JSON.stringify(aes ? sealRequest(r.token, r.body) : r.body),
        };
      },
    },
  ],
});
if (timer) clearInterval(timer);
// Scans still queued behind the load finish, and count, with their full latency.
await Promise.allSettled([...inFlight]);
const sorted = writes.latencies.sort((a, b) => a - b);
process.stdout.write(
  JSON.stringify({
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    bytes: result.throughput.total,
    writes: writer
      ? {
          done: writes.done,
          received: writes.received,
          failed: writes.failed,
          p99: Math.round(sorted[Math.floor(sorted.length * 0.99)] ?? 0),
        }
      : null,
  }),
);
