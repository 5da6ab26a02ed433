/**
 * Load generator for bench/warehouse.ts, in its own process so the clients' AES sealing and
 * timing do not share the server's event loop. Three phases against the server:
 *   bare   — 20 clients calling the bare route one call after another (the transport's floor);
 *   store  — 20 scanners, each storing its share of the waybills one `storageOrder/create`
 *            call per scan into its own storage order, while `LIST_CLIENTS` clients read
 *            another customer's order list (`order/orderList`) until the scanners are done;
 *   ship   — the same 20 scanners shipping them, one `storageOrder/outSingle` per scan, the
 *            list running again.
 * Prints one JSON object: latencies (ms) of each phase and outcome counts.
 *   node bench/warehouse-load.ts <config.json>
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openResponse, sealRequest } from '../test/aes-client.ts';

interface Config {
  base: string;
  scanToken: string;
  listToken: string;
  waybills: string[];
  scanners: number;
  listClients: number;
  bareCalls: number;
}
const cfg = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as Config;

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => Number((s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0).toFixed(2));
  return { n: s.length, p50: q(0.5), p99: q(0.99), max: Number((s[s.length - 1] ?? 0).toFixed(2)) };
};

async function post(path: string, body: unknown, token: string, aes: boolean) {
  const r = await fetch(`${cfg.base}/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      ...(aes ? { aes: '1' } : {}),
    },
    body: JSON.stringify(aes ? sealRequest(token, body) : body),
  });
  const j = (await r.json()) as { data: unknown; iv?: string };
  if (r.status !== 200) throw new Error(`${path} ${r.status} ${JSON.stringify(j).slice(0, 300)}`);
  return aes ? openResponse(token, j as { data: string; iv: string }) : j.data;
}

/** `clients` loops, each taking the next item until none is left; every call timed. */
async function pool<T>(clients: number, items: T[][], call: (item: T, client: number) => Promise<void>) {
  const latencies: number[] = [];
  await Promise.all(
    items.slice(0, clients).map(async (mine, client) => {
      for (const item of mine) {
        const t = performance.now();
        await call(item, client);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return latencies;
}

/** The other user's order list, pages and filters varied, until `done` resolves. */
function listLoop(done: Promise<unknown>) {
  let stop = false;
  void done.then(() => (stop = true));
  const latencies: number[] = [];
  const statuses = [undefined, 'created', 'received', 'shipped'];
  return Promise.all(
    Array.from({ length: cfg.listClients }, async (_, c) => {
      for (let i = c; !stop; i += cfg.listClients) {
        const t = performance.now();
        await post(
          'order/orderList',
          { offset: (i % 5) * 20, limit: 20, ...(statuses[i % 4] ? { status: statuses[i % 4] } : {}) },
          cfg.listToken,
          false,
        );
        latencies.push(performance.now() - t);
      }
    }),
  ).then(() => latencies);
}

const shares = (n: number) =>
  Array.from({ length: cfg.scanners }, (_, k) => cfg.waybills.filter((_, i) => i % cfg.scanners === k)).slice(0, n);

// Warm-up: connections open, code paths compiled.
for (let i = 0; i < 50; i++) await post('bench/bare', {}, cfg.scanToken, false);

const bare = await pool(
  cfg.scanners,
  Array.from({ length: cfg.scanners }, () => Array.from({ length: Math.ceil(cfg.bareCalls / cfg.scanners) }, () => 0)),
  async () => void (await post('bench/bare', {}, cfg.scanToken, false)),
);

const outcomes: Record<string, number> = {};
const count = (o: string) => (outcomes[o] = (outcomes[o] ?? 0) + 1);

const storageIds: (number | undefined)[] = [];
const storeRun = pool(cfg.scanners, shares(cfg.scanners), async (code, k) => {
  const r = (await post(
    'storageOrder/create',
    { id: storageIds[k], origin: 'counter', waybillNos: [code] },
    cfg.scanToken,
    true,
  )) as { storageOrder: { id: number }; lines: { outcome: string }[] };
  storageIds[k] = r.storageOrder.id;
  count(`store:${r.lines[0]!.outcome}`);
});
const [store, listDuringStore] = await Promise.all([storeRun, listLoop(storeRun)]);

const shipmentIds: (number | undefined)[] = [];
const shipRun = pool(cfg.scanners, shares(cfg.scanners), async (code, k) => {
  const r = (await post('storageOrder/outSingle', { shipmentId: shipmentIds[k], code }, cfg.scanToken, true)) as {
    shipment: { id: number } | null;
    line: { outcome: string };
  };
  shipmentIds[k] ??= r.shipment?.id;
  count(`ship:${r.line.outcome}`);
});
const [ship, listDuringShip] = await Promise.all([shipRun, listLoop(shipRun)]);

process.stdout.write(
  JSON.stringify({
    bare: stats(bare),
    store: stats(store),
    ship: stats(ship),
    listDuringStore: stats(listDuringStore),
    listDuringShip: stats(listDuringShip),
    outcomes,
  }),
);
