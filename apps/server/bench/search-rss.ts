/**
 * Batch search of a large .xlsx (issue 26, finding 4): starts the server on SQLite on loopback,
 * sends 8 searches of a ~4 MB workbook (5,000 numbers, 40 more columns) at once, and prints the
 * server's peak RSS above idle and the longest a health call waited meanwhile (the event
 * loop's stall).
 *   npm run bench:search-rss -w apps/server [-- --port 8125]
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { httpClient } from '../test/harness.ts';

const i = process.argv.indexOf('--port');
const port = Number(i < 0 ? 8125 : process.argv[i + 1]);
const http = httpClient(`http://127.0.0.1:${port}/api`);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-search-'));
const server = spawn(process.execPath, [path.join(import.meta.dirname, '../src/server.ts')], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, DEMO_SEED: 'true', LOG_LEVEL: 'warn' },
  stdio: 'ignore',
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMiB = () =>
  Number(
    execFileSync('ps', ['-o', 'rss=', '-p', String(server.pid)])
      .toString()
      .trim(),
  ) / 1024;

try {
  await http.ready();
  const token = await http.login('demo');
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('s');
  ws.addRow(['运单号', ...Array.from({ length: 40 }, (_, c) => `note ${c}`)]);
  for (let r = 0; r < 5000; r++)
    ws.addRow([
      `MISSING-${r}`,
      ...Array.from({ length: 40 }, (_, c) => `${r}-${c}-${((r * 31 + c) * 2654435761) % 1e9}`),
    ]);
  const data = Buffer.from(await wb.xlsx.writeBuffer());
  await sleep(2000);
  const idle = rssMiB();
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB())), 50);
  let worstHealth = 0;
  let searching = true;
  const prober = (async () => {
    while (searching) {
      const t = performance.now();
      await fetch(`http://127.0.0.1:${port}/api/health`);
      worstHealth = Math.max(worstHealth, performance.now() - t);
      await sleep(20);
    }
  })();
  const t = performance.now();
  const answers = await Promise.all(
    Array.from({ length: 8 }, () => http.upload('order/orderBatchSearch', token, { name: 'n.xlsx', data })),
  );
  const seconds = (performance.now() - t) / 1000;
  searching = false;
  await prober;
  clearInterval(sampler);
  console.log(`file ${(data.length / 1024 / 1024).toFixed(1)} MB; answers ${answers.map((a) => a.status).join(',')}`);
  console.log(
    `8 parallel searches: ${seconds.toFixed(1)} s, peak RSS ${(peak - idle).toFixed(0)} MiB above idle (${idle.toFixed(0)}), ` +
      `longest health call meanwhile ${(worstHealth / 1000).toFixed(2)} s`,
  );
} finally {
  server.kill('SIGTERM');
  await sleep(500);
  fs.rmSync(dir, { recursive: true, force: true });
}
