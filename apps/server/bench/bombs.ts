/**
 * Zip and sheet bombs against a running server (issue 10, findings 2 and 3): starts the
 * server on SQLite in a temp folder, uploads four bombs at once — three workbooks whose
 * central directory declares 4 KB and that inflate to 1 GiB (batch upload, batch search,
 * ID-card import) and one honest-sized sheet whose first row never closes — and prints the
 * server's peak RSS above idle (goal: at most 300 MiB) and what each upload answered.
 *   npm run bench:bombs -w apps/server  [-- <port>]
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { httpClient } from '../test/harness.ts';
import { lyingWorkbook, sheetWorkbook } from '../test/support/zip.ts';

const port = Number(process.argv[2] ?? 8104);
const http = httpClient(`http://127.0.0.1:${port}/api`);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bombs-'));
const server = spawn(process.execPath, [path.join(import.meta.dirname, '../src/server.ts')], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, DEMO_SEED: 'true', LOG_LEVEL: 'warn' },
  stdio: 'ignore',
});
const rssMiB = () =>
  Number(
    execFileSync('ps', ['-o', 'rss=', '-p', String(server.pid)])
      .toString()
      .trim(),
  ) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const send = async (p: string, token: string, data: Buffer, fields: Record<string, string> = {}) => ({
  path: p,
  ...(await http.upload(p, token, { name: 'bomb.xlsx', data }, fields)),
});

try {
  await http.ready();
  const token = await http.login('demo');
  const lying = await lyingWorkbook(1024 ** 3);
  // Cells that differ keep the compression ratio under the guard's, so the declared sizes are honest.
  const cells: string[] = [];
  for (let i = 0; i < 900_000; i++)
    cells.push(`<c r="A1" t="inlineStr"><is><t>${((i * 2654435761) % 1e9).toString(36)}</t></is></c>`);
  const sheetBomb = sheetWorkbook(`<row r="1">${cells.join('')}`);
  await sleep(2000);
  const idle = rssMiB();
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB())), 20);
  const t = performance.now();
  const answers = await Promise.all([
    send('order/batch/create', token, lying, { channel: 'SG' }),
    send('order/orderBatchSearch', token, lying),
    send('order/idCard/import', token, lying),
    send('order/batch/createImport', token, sheetBomb, { channel: 'JP' }),
  ]);
  for (const a of answers) {
    let outcome = `${a.status} ${JSON.stringify(a.body.data?.file ?? a.body.message)}`;
    if (a.status === 200) {
      for (;;) {
        const p = (await http.post('order/batch/progress', { id: a.body.data.id }, token)).body;
        if (p.data.status !== 'parsing') {
          outcome += ` → batch ${p.data.status}: ${p.data.errorMessage}`;
          break;
        }
        await sleep(100);
      }
    }
    console.log(`${a.path.padEnd(26)} ${outcome}`);
  }
  clearInterval(sampler);
  console.log(
    `four bombs at once: idle ${idle.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB, ` +
      `${(peak - idle).toFixed(0)} MiB above idle (goal ≤ 300), all settled in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
} finally {
  server.kill('SIGTERM');
  await sleep(500);
  fs.rmSync(dir, { recursive: true, force: true });
}
