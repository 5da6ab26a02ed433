/**
 * Issue 14, "done means": an operator scans an order's number on the print-by-number page and
 * its label comes out of a real CUPS printer — a cups-pdf queue of this run, reached through the
 * print agent (apps/print-agent, started here with the machine's CUPS tools), whose PDF is read
 * back: one 100 × 150 mm page whose waybill barcode decodes to the order's. CUPS is started here when it is not running (never skipped).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '../support/test.ts';
import { addPdfQueue, cupsPdfOut, ensureCups, removeQueue } from '../../apps/print-agent/test/cups-env.ts';
import { LAYOUT } from '../../apps/server/src/modules/labels/labels.render.ts';
import { decodeBox, renderPage } from '../../apps/server/test/support/pdf-read.ts';
import { MAIN, MAIN_PORT } from '../servers.ts';
import { createOrder } from '../support/orders.ts';
import { api, apiLogin, loginByCookie } from '../support/session.ts';

const AGENT_PORT = Number(process.env.E2E_PRINT_AGENT_PORT ?? MAIN_PORT + 100) + 1;
const QUEUE = `E2ELabels${MAIN_PORT}`;
const root = resolve(import.meta.dirname, '../..');
let agent: ChildProcess;

test.beforeAll(async () => {
  await ensureCups();
  await addPdfQueue(QUEUE);
  const dir = mkdtempSync(join(tmpdir(), 'print-cups-e2e-'));
  agent = spawn(join(root, 'node_modules/.bin/node'), [join(root, 'apps/print-agent/src/main.ts')], {
    env: {
      ...process.env,
      PRINT_AGENT_ORIGINS: `http://localhost:${MAIN_PORT}`,
      PRINT_AGENT_PORT: String(AGENT_PORT),
      PRINT_AGENT_CAINIAO_PORT: 'off',
      PRINT_AGENT_PDF_DIR: join(dir, 'pdf'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`print agent did not start:\n${output}`)), 20_000);
    const read = (b: Buffer) => {
      output += b.toString();
      if (output.includes(String(AGENT_PORT))) {
        clearTimeout(timer);
        ok();
      }
    };
    agent.stdout!.on('data', read);
    agent.stderr!.on('data', read);
    agent.once('exit', (code) => fail(new Error(`print agent exited ${code}:\n${output}`)));
  });
});

test.afterAll(async () => {
  agent?.kill('SIGTERM');
  await removeQueue(QUEUE);
});

test("an operator scans an order's number and its label comes out of the CUPS PDF printer", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const order = await createOrder(request, await apiLogin(request, 'demo'));
  const token = await loginByCookie(context, request, 'operator');
  const saved = await api(
    request,
    'user/settings/save',
    { key: 'print', value: { agentPort: AGENT_PORT, printer: QUEUE, pickingList: false, repeatIntercept: true } },
    token,
  );
  expect(saved.status).toBe(200);
  const out = cupsPdfOut();
  const since = Date.now();

  await page.goto(`${MAIN}/home/printByOrderNumber`);
  await expect(page.getByTestId('agent-ready')).toBeVisible();
  await expect(page.getByTestId('print-printer')).toContainText(QUEUE);
  const numbers = page.getByTestId('print-numbers');
  await numbers.fill(order.orderNo);
  await numbers.press('Enter');
  const line = page.getByTestId(`print-line-${order.orderNo}`);
  await expect(line).toContainText('可打印');
  await page.getByTestId('print-all').click();
  await expect(line).toContainText('已打印');

  // cups-pdf writes the job's PDF into its output folder, in place: taken once the queue is done.
  const newPdf = () => {
    if (!existsSync(out)) return undefined;
    if (execFileSync('lpstat', ['-W', 'not-completed', '-o', QUEUE]).toString().trim()) return undefined;
    const f = readdirSync(out).find((n) => n.endsWith('.pdf') && statSync(join(out, n)).mtimeMs >= since - 1000);
    return f ? join(out, f) : undefined;
  };
  await expect.poll(newPdf, { timeout: 60_000 }).toBeTruthy();
  const file = newPdf()!;
  const info = execFileSync('pdfinfo', [file]).toString();
  expect(Number(/^Pages:\s+(\d+)/m.exec(info)?.[1])).toBe(1);
  // 100 × 150 mm is 283.46 × 425.2 pt.
  const [w, h] = (/^Page size:\s+([\d.]+) x ([\d.]+)/m.exec(info) ?? []).slice(1).map(Number);
  expect(Math.abs(w! - 283.46)).toBeLessThan(2);
  expect(Math.abs(h! - 425.2)).toBeLessThan(2);
  // The label is the order's: its waybill barcode reads back (cups-pdf's Ghostscript pass drops the
  // text's Unicode map, so the barcode, not pdftotext, says whose label it is).
  expect(decodeBox(renderPage(file, 1), LAYOUT.waybillBarcode)?.text).toBe(order.waybillNo);
});
