import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SLIP_LAYOUT } from '../../src/modules/pickups/pickups.slip.ts';
import { createHarness, type Harness } from '../harness.ts';
import { postedToWorkers } from '../support/worker-posts.ts';
import { plain, plainBlob } from '../plain-client.ts';
import { decodeBox, pdfPages, pdfText, renderPage } from '../support/pdf-read.ts';

/**
 * Issue 26, finding 3: a pickup slip with 1,000 box markers was drawn on the event loop
 * (1.6 s of it, every other call waiting). It is drawn in the file workers now, as the
 * label PDFs are; the content is read back to show it is the same slip.
 */
// Saturday 2026-11-21, 08:30 in Japan (the calendar of pickups.test.ts).
const SAT_0830_JST = new Date('2026-11-20T23:30:00Z');
let h: Harness;
let demo: string;

beforeAll(async () => {
  h = await createHarness({ now: SAT_0830_JST, env: { ACCESS_TOKEN_TTL_SECONDS: String(30 * 86400) } });
  demo = await h.login('demo');
});

describe('finding 3: the slip PDF is drawn off the event loop', () => {
  it('a 1,000-marker slip leaves /api/health answering all through, and reads back complete', async () => {
    const booked = await plain(
      h,
      'subscribe/take/piece',
      {
        region: 'tokyo',
        date: '2026-11-24',
        slot: '10-12',
        boxNo: 'BX-BIG',
        shopAbbr: 'YYK',
        bigCartons: 500,
        smallParcels: 500,
        markerPrefix: 'BIG',
      },
      demo,
      'en',
    );
    expect(booked.status).toBe(200);

    // Health calls one after another while the slip renders, each stamped when answered; each
    // waits for the next turn of the loop, as a request from a socket would.
    let rendering = true;
    const answeredAt: number[] = [];
    const health = (async () => {
      while (rendering) {
        await new Promise((resolve) => setImmediate(resolve));
        const r = await h.app.inject({ method: 'GET', url: '/api/health' });
        expect(r.statusCode).toBe(200);
        answeredAt.push(performance.now());
      }
    })();
    const started = performance.now();
    const { result: res, posted } = await postedToWorkers(() =>
      plainBlob(h, 'subscribe/take/pdf', { id: booked.data.id }, demo, 'en'),
    );
    const ended = performance.now();
    rendering = false;
    await health;
    expect(res.status, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');

    // Off the loop: the slip was drawn by a worker thread (its render posted to one), and health
    // answered while it was. How long the loop went without an answer is left to benchmarks: on a
    // loaded machine that is the scheduler's verdict, not the code's (issue 37).
    const render = posted.map((p) => p.message.render as { module: string } | undefined).find(Boolean);
    expect(render?.module, 'the slip rendered in a worker thread').toMatch(/pickups/);
    expect(answeredAt.filter((t) => t > started && t < ended).length).toBeGreaterThan(0);

    // The same slip: the booking page, then ten markers a page, the last one BIG-1000.
    const file = path.join(h.dataDir, 'big-slip.pdf');
    fs.writeFileSync(file, res.bytes);
    expect(pdfPages(file)).toBe(101);
    expect(decodeBox(renderPage(file, 1), SLIP_LAYOUT.bookingBarcode)?.text).toBe(booked.data.pickupNo);
    const first = pdfText(file, 1);
    expect(first).toContain('Pickup appointment');
    expect(first).toContain('2026-11-24');
    expect(first).toContain('Shinkiba');
    expect(first).toContain('Big carton 500 / Small parcel 500');
    const m = SLIP_LAYOUT.markers;
    const cell = { x: m.left + 5, y: m.top + 16, width: m.cellWidth - 14, height: m.barcodeHeight };
    expect(decodeBox(renderPage(file, 2), cell)?.text).toBe('BIG-001');
    expect(pdfText(file, 51)).toContain('Big carton 500/1000');
    expect(pdfText(file, 52)).toContain('Small parcel 501/1000');
    const last = pdfText(file, 101);
    expect(last).toContain('BIG-1000');
    expect(decodeBox(renderPage(file, 101), cell)?.text).toBe('BIG-991');
    // 1,000 markers drawn, then pages rasterised to read them back: seconds on a busy machine.
  }, 240_000);
});
