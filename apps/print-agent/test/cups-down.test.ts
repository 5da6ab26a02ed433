import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parseConfig } from '../src/config.ts';
import { SAVE_TO_FOLDER } from '../src/printing.ts';
import { startAgent, STATUS_PATH, type Agent } from '../src/server.ts';
import { makePdf } from './pdf.ts';

/**
 * Issue 28 #7: CUPS down. The agent's lp/lpstat are pointed at a socket no scheduler listens on
 * (CUPS_SERVER, which the CUPS clients read; this file runs in its own process), as on a PC whose
 * cupsd is stopped, without stopping the scheduler the other test files share. "Save to PDF
 * folder" must stay offered and print, and the status answer says why no other printer is there.
 */

const ORIGIN = 'http://localhost:8601';
let agent: Agent;
let dir: string;
const previous = process.env.CUPS_SERVER;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'print-agent-cups-down-'));
  process.env.CUPS_SERVER = path.join(dir, 'no-cupsd.sock');
  agent = await startAgent(
    parseConfig({
      PRINT_AGENT_PORT: '0',
      PRINT_AGENT_CAINIAO_PORT: 'off',
      PRINT_AGENT_HOSTS: '127.0.0.1',
      PRINT_AGENT_ORIGINS: ORIGIN,
      PRINT_AGENT_PDF_DIR: path.join(dir, 'pdf'),
    }),
  );
});

afterAll(async () => {
  await agent?.close();
  if (previous === undefined) delete process.env.CUPS_SERVER;
  else process.env.CUPS_SERVER = previous;
  rmSync(dir, { recursive: true, force: true });
});

async function ask(messages: object[]): Promise<unknown[]> {
  const ws = new WebSocket(`ws://127.0.0.1:${agent.ports.qz}`, { origin: ORIGIN });
  await new Promise((ok, fail) => ws.once('open', ok).once('error', fail));
  const replies: unknown[] = [];
  for (const m of messages) {
    const reply = new Promise<unknown>((ok) => ws.once('message', (d) => ok(JSON.parse(d.toString()))));
    ws.send(JSON.stringify(m));
    replies.push(await reply);
  }
  ws.close();
  return replies;
}

it('with the CUPS scheduler down, still offers and prints to "Save to PDF folder"', async () => {
  const [found, def, details] = await ask([
    { call: 'printers.find', uid: 'f' },
    { call: 'printers.getDefault', uid: 'd' },
    { call: 'printers.detail', uid: 'x' },
  ]);
  expect(found).toEqual({ uid: 'f', result: [SAVE_TO_FOLDER] });
  expect(def).toEqual({ uid: 'd', result: null });
  expect(details).toMatchObject({ uid: 'x', result: [{ name: SAVE_TO_FOLDER, status: 'enabled' }] });

  const data = makePdf(1).toString('base64');
  const [printed, refused] = await ask([
    {
      call: 'print',
      uid: 'p',
      params: {
        printer: SAVE_TO_FOLDER,
        options: { jobName: 'cupsdown' },
        data: [{ format: 'pdf', flavor: 'base64', data }],
      },
    },
    // A CUPS queue is not there to take it: the reason names the scheduler.
    { call: 'print', uid: 'q', params: { printer: 'AnyQueue', data: [{ format: 'pdf', flavor: 'base64', data }] } },
  ]);
  expect(printed).toEqual({ uid: 'p', result: null });
  expect(readdirSync(path.join(dir, 'pdf')).filter((n) => n.includes('cupsdown'))).toHaveLength(1);
  expect(refused).toEqual({
    uid: 'q',
    error: 'Printer "AnyQueue" refused the job: the CUPS scheduler is not running (start cupsd)',
  });
});

it('answers GET /status: CUPS not running to an allowed page, only "refused" to another', async () => {
  const get = (origin: string) =>
    fetch(`http://127.0.0.1:${agent.ports.qz}${STATUS_PATH}`, { headers: { origin } }).then(async (r) => ({
      cors: r.headers.get('access-control-allow-origin'),
      body: (await r.json()) as Record<string, unknown>,
    }));
  expect(await get(ORIGIN)).toEqual({
    cors: ORIGIN,
    body: {
      agent: 'print-agent',
      version: '2.2.6',
      origin: ORIGIN,
      originAllowed: true,
      originsSetting: 'PRINT_AGENT_ORIGINS',
      cups: 'not-running',
    },
  });
  const other = await get('http://localhost:9999');
  expect(other.cors).toBe('http://localhost:9999');
  expect(other.body).toEqual({
    agent: 'print-agent',
    version: '2.2.6',
    origin: 'http://localhost:9999',
    originAllowed: false,
    originsSetting: 'PRINT_AGENT_ORIGINS',
  });
});
