/**
 * Pickup slip benchmark (issue 26, finding 3): 20 slips of 1,000 box markers each, asked for at
 * once, drawn two ways in the same process: on the event loop (how the slip was drawn before)
 * and through the file workers the product uses now (`renderFile`, as the service does). For
 * each: the wall time, and the event loop's longest stall meanwhile (the longest gap of a 10 ms
 * timer) — the time every other call waited.
 *   npm run bench:slips -w apps/server  [-- <slips> <markers>]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { useTempFolder } from '../src/lib/temp-files.ts';
import { renderFile } from '../src/lib/workbook-job.ts';
import { renderSlip, type SlipRender } from '../src/modules/pickups/pickups.slip.ts';

const FONTS = process.env.LABEL_FONT_DIR ?? '/usr/share/fonts/opentype/noto';
const args = process.argv.slice(2).filter((a) => a !== '--');
const slips = Number(args[0] ?? 20) || 20;
const markers = Number(args[1] ?? 1000) || 1000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-slips-'));
const { release } = useTempFolder(path.join(dir, 'tmp'));

const slip = (i: number): SlipRender => ({
  fontDir: FONTS,
  pickupNo: `PK2611240${String(i).padStart(3, '0')}`,
  customerCode: 'DEMO',
  region: 'tokyo',
  regionName: 'Tokyo',
  date: '2026-11-24',
  slot: '10-12',
  boxNo: `BX-${i}`,
  shopAbbr: 'YYK',
  bigCartons: Math.ceil(markers / 2),
  smallParcels: Math.floor(markers / 2),
  markerPrefix: `B${i}`,
  labels: {
    title: 'Pickup appointment',
    pickupNo: 'Booking no.',
    slot: 'Pickup',
    address: 'Depot',
    box: 'Box no.',
    shop: 'Shop',
    counts: 'Expected',
    big: 'Big carton',
    small: 'Small parcel',
  },
});

/**
 * A 10 ms interval timer, stamped each time it runs: the longest gap between two runs is the
 * longest time the event loop could answer nothing (monitorEventLoopDelay drops the first
 * sample, which is the whole stall when the loop is held from the start).
 */
function loopProbe() {
  const gaps: number[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }, 10);
  return () => {
    clearInterval(timer);
    gaps.push(performance.now() - last);
    gaps.sort((a, b) => a - b);
    return { max: gaps.at(-1)!, p99: gaps[Math.floor(gaps.length * 0.99)]! };
  };
}

async function measure(name: string, run: (i: number) => Promise<string>) {
  const stop = loopProbe();
  // A turn first, so the probe's timer is armed before the work starts.
  await new Promise((r) => setTimeout(r, 20));
  const t0 = performance.now();
  const files = await Promise.all(Array.from({ length: slips }, (_, i) => run(i)));
  const ms = performance.now() - t0;
  const gaps = stop();
  const bytes = files.reduce((n, f) => n + fs.statSync(f).size, 0);
  for (const f of files) fs.rmSync(f, { force: true });
  const r = {
    name,
    wallMs: Math.round(ms),
    maxStallMs: Math.round(gaps.max),
    p99GapMs: Math.round(gaps.p99),
    MiB: +(bytes / 2 ** 20).toFixed(1),
  };
  console.log(JSON.stringify(r));
  return r;
}

console.log(`${slips} slips of ${markers} markers at once`);
// Warm both paths once (fonts, modules, a worker started) so neither pays the first load.
await renderSlip(slip(0), path.join(dir, 'warm.pdf'));
fs.rmSync(await renderFile({ kind: 'pickup-slip', arg: slip(0) }, { ext: 'pdf', total: 1 }));

const onLoop = await measure('on the event loop (before)', async (i) => {
  const out = path.join(dir, `loop-${i}.pdf`);
  await renderSlip(slip(i), out);
  return out;
});
const workers = await measure('file workers (now)', (i) =>
  renderFile({ kind: 'pickup-slip', arg: slip(i) }, { ext: 'pdf', total: markers }),
);
console.log(
  `longest event-loop stall: ${onLoop.maxStallMs} ms before, ${workers.maxStallMs} ms now (${(onLoop.maxStallMs / Math.max(1, workers.maxStallMs)).toFixed(0)}× shorter)`,
);
release();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
