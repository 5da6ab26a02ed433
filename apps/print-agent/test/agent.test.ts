import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import qz from 'qz-tray';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parseConfig } from '../src/config.ts';
import { SAVE_TO_FOLDER } from '../src/printing.ts';
import { startAgent, type Agent } from '../src/server.ts';
import { addPdfQueue, cupsPdfOut, ensureCups, pdfInfo, removeQueue, sh, waitForPdf } from './cups-env.ts';
import { makePdf } from './pdf.ts';

/**
 * The agent against a real CUPS scheduler and cups-pdf queue, driven by QZ's own client
 * (qz-tray) and by raw messages, on both of its protocols.
 */

const QUEUE = 'AgentTestPDF';
const GONE = 'AgentTestGone';
const ORIGIN = 'https://console.test';
const A4 = makePdf(1, 595.28, 841.89);
const TWO_PAGES = makePdf(2);

let agent: Agent;
/** The console's own web server (an allowed origin) serving a PDF, and a count of its requests. */
let site: http.Server;
let siteOrigin: string;
const siteHits: string[] = [];
let pdfDir: string;
let outDir: string;
let previousDefault: string | null = null;
const written: string[] = [];

const title = (what: string) => `agenttest${what}${randomBytes(4).toString('hex')}`;

async function printed(t: string): Promise<string> {
  const file = await waitForPdf(outDir, t, QUEUE);
  written.push(file);
  return file;
}

beforeAll(async () => {
  await ensureCups();
  await removeQueue(QUEUE);
  await addPdfQueue(QUEUE);
  previousDefault = /system default destination: (\S+)/.exec(await sh('lpstat', ['-d']).catch(() => ''))?.[1] ?? null;
  await sh('lpadmin', ['-d', QUEUE]);
  outDir = cupsPdfOut();
  pdfDir = mkdtempSync(path.join(os.tmpdir(), 'print-agent-folder-'));
  site = http.createServer((req, res) => {
    siteHits.push(req.url ?? '');
    if (req.url === '/a4.pdf') res.writeHead(200, { 'content-type': 'application/pdf' }).end(A4);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  agent = await startAgent(
    parseConfig({
      PRINT_AGENT_PORT: '0',
      PRINT_AGENT_CAINIAO_PORT: '0',
      PRINT_AGENT_HOSTS: '127.0.0.1',
      PRINT_AGENT_ORIGINS: `${ORIGIN},http://localhost:8080,${siteOrigin}`,
      PRINT_AGENT_PDF_DIR: pdfDir,
    }),
  );
});

afterAll(async () => {
  await agent?.close();
  await new Promise<void>((r) => (site ? site.close(() => r()) : r()));
  await removeQueue(QUEUE);
  await removeQueue(GONE);
  if (previousDefault && previousDefault !== QUEUE) await sh('lpadmin', ['-d', previousDefault]).catch(() => {});
  for (const f of written) rmSync(f, { force: true });
  if (pdfDir) rmSync(pdfDir, { recursive: true, force: true });
});

/** The qz-tray client opens sockets with `new Type(url)`: this one adds the page's Origin. */
function wsWithOrigin(origin: string) {
  return class extends WebSocket {
    constructor(url: string) {
      super(url, { origin });
    }
  };
}

async function qzConnect(origin = ORIGIN) {
  qz.api.setWebSocketType(wsWithOrigin(origin));
  await qz.websocket.connect({
    host: '127.0.0.1',
    usingSecure: false,
    port: { secure: [], insecure: [agent.ports.qz], portIndex: 0 },
    keepAlive: 0,
  });
}

describe('QZ Tray protocol through the official qz-tray client', () => {
  beforeAll(async () => {
    await qzConnect();
  });
  afterAll(async () => {
    if (qz.websocket.isActive()) await qz.websocket.disconnect();
  });

  it('connects unsigned (certificate handshake answered) and reports a QZ 2.2 version', async () => {
    expect(qz.websocket.isActive()).toBe(true);
    expect(await qz.api.getVersion()).toBe('2.2.6');
  });

  it('lists the CUPS queues and the save-to-folder printer, finds one by name, and the default', async () => {
    const all: string[] = await qz.printers.find();
    expect(all).toContain(QUEUE);
    expect(all).toContain(SAVE_TO_FOLDER);
    // QZ Tray matches names ignoring case, then by part.
    expect(await qz.printers.find('agenttestpdf')).toBe(QUEUE);
    await expect(qz.printers.find('NoSuchPrinterXYZ')).rejects.toThrow('Specified printer could not be found.');
    expect(await qz.printers.getDefault()).toBe(QUEUE);
    const details: { name: string; default: boolean; connection: string }[] = await qz.printers.details();
    expect(details.find((p) => p.name === QUEUE)).toMatchObject({
      default: true,
      connection: 'cups-pdf:/',
      status: 'enabled',
    });
    expect(details.find((p) => p.name === SAVE_TO_FOLDER)).toMatchObject({
      default: false,
      connection: `file://${pdfDir}`,
    });
  });

  it('prints a base64 PDF on the requested paper size: an A4 page arrives as one 100×150 mm page', async () => {
    const t = title('size');
    const config = qz.configs.create(QUEUE, { size: { width: 100, height: 150 }, units: 'mm', margins: 0, jobName: t });
    await qz.print(config, [{ type: 'pixel', format: 'pdf', flavor: 'base64', data: A4.toString('base64') }]);
    const info = await pdfInfo(await printed(t));
    expect(info.pages).toBe(1);
    // 100 × 150 mm = 283.46 × 425.2 pt; pdfinfo rounds to whole points.
    expect(info.size).toMatch(/^283(\.\d+)? x 425(\.\d+)? pts/);
  });

  it('prints the requested copies as one collated job: 3 copies of 2 pages are 6 pages 1,2,1,2,1,2', async () => {
    const t = title('copies');
    const config = qz.configs.create(QUEUE, { copies: 3, jobName: t, size: { width: 4, height: 6 }, units: 'in' });
    await qz.print(config, [{ type: 'pixel', format: 'pdf', flavor: 'base64', data: TWO_PAGES.toString('base64') }]);
    const file = await printed(t);
    expect((await pdfInfo(file)).pages).toBe(6);
    const text = await sh('pdftotext', [file, '-']);
    expect(text.match(/Page \d/g)).toEqual(['Page 1', 'Page 2', 'Page 1', 'Page 2', 'Page 1', 'Page 2']);
  });

  it('saves to the PDF folder once, with the copy count in the name, the bytes unchanged', async () => {
    const config = qz.configs.create(SAVE_TO_FOLDER, { copies: 2, jobName: 'label 12/34' });
    await qz.print(config, [{ type: 'pixel', format: 'pdf', flavor: 'base64', data: TWO_PAGES.toString('base64') }]);
    const files = readdirSync(pdfDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/-label_12_34-x2-[0-9a-f]{6}\.pdf$/);
    expect(readFileSync(path.join(pdfDir, files[0])).equals(TWO_PAGES)).toBe(true);
  });

  it('answers an error the console can show when the printer vanished after it was listed', async () => {
    await addPdfQueue(GONE);
    expect(await qz.printers.find(GONE)).toBe(GONE);
    await sh('lpadmin', ['-x', GONE]);
    const config = qz.configs.create(GONE, { jobName: title('gone') });
    await expect(
      qz.print(config, [{ type: 'pixel', format: 'pdf', flavor: 'base64', data: A4.toString('base64') }]),
    ).rejects.toThrow(`Printer "${GONE}" could not be found`);
    // The connection survives the failed job.
    expect(await qz.api.getVersion()).toBe('2.2.6');
  });

  it('refuses a page from another origin: the client cannot connect at all', async () => {
    await qz.websocket.disconnect();
    await expect(qzConnect('https://evil.example')).rejects.toThrow(/Unable to establish connection/);
    expect(qz.websocket.isActive()).toBe(false);
  });
});

/** A raw WebSocket client that reads replies in order. */
async function raw(port: number, origin: string | undefined = ORIGIN) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}`, origin ? { origin } : {});
  const queue: unknown[] = [];
  const waiting: ((m: unknown) => void)[] = [];
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString());
    const w = waiting.shift();
    if (w) w(m);
    else queue.push(m);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    send: (m: unknown) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)),
    next: (): Promise<any> =>
      queue.length > 0
        ? Promise.resolve(queue.shift())
        : new Promise((resolve, reject) => {
            waiting.push(resolve);
            setTimeout(() => reject(new Error('no reply within 60s')), 60_000).unref();
          }),
  };
}

/** The HTTP answer to an upgrade the agent refuses. */
function refusal(port: number, origin?: string): Promise<{ status: number; header: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}`, origin ? { origin } : {});
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          header: res.headers['x-print-agent-error'] as string | undefined,
          body,
        }),
      );
    });
    ws.on('open', () => reject(new Error('the agent accepted the connection')));
    ws.on('error', () => {});
  });
}

const pdfData = (pdf: Buffer) => [{ type: 'pixel', format: 'pdf', flavor: 'base64', data: pdf.toString('base64') }];

describe('QZ Tray protocol with raw messages', () => {
  it('answers the certificate handshake, ignores the keep-alive ping and matches replies by uid', async () => {
    const c = await raw(agent.ports.qz);
    c.send({ certificate: null, uid: 'c1', timestamp: Date.now(), position: { x: 0, y: 0 } });
    expect(await c.next()).toEqual({ uid: 'c1', result: null });
    c.send('ping');
    c.send({ call: 'getVersion', uid: 'v1', timestamp: Date.now() });
    // Had "ping" been answered, that answer would come first.
    expect(await c.next()).toEqual({ uid: 'v1', result: '2.2.6' });
    c.ws.close();
  });

  it('answers a bad message with an error and keeps serving the connection', async () => {
    const c = await raw(agent.ports.qz);
    c.send('{not json');
    expect(await c.next()).toEqual({ uid: null, error: 'Invalid message: not JSON' });
    c.send('[1,2]');
    expect(await c.next()).toEqual({ uid: null, error: 'Invalid message: expected a JSON object' });
    c.send({ uid: 'n1' });
    expect(await c.next()).toEqual({ uid: 'n1', error: 'Invalid message: no call' });
    c.send({ call: 'serial.openPort', uid: 'u1', params: {} });
    const unknown = await c.next();
    expect(unknown.uid).toBe('u1');
    expect(unknown.error).toMatch(
      /^Unsupported call "serial.openPort": this agent implements getVersion, printers.find/,
    );
    c.send({
      call: 'print',
      uid: 'p0',
      params: { printer: { name: QUEUE }, options: { copies: 0 }, data: pdfData(A4) },
    });
    expect((await c.next()).error).toMatch(/^Invalid print params: options.copies: /);
    c.send({
      call: 'print',
      uid: 'p1',
      params: { printer: QUEUE, data: [{ type: 'pixel', format: 'pdf', flavor: 'base64', data: 'aGVsbG8=' }] },
    });
    expect(await c.next()).toEqual({ uid: 'p1', error: 'Document 1 is not a PDF: it does not start with %PDF-' });
    c.send({
      call: 'print',
      uid: 'p2',
      params: { printer: QUEUE, data: [{ type: 'raw', format: 'command', data: '^XA^XZ' }] },
    });
    expect((await c.next()).error).toMatch(/only PDFs are printed/);
    c.send({
      call: 'print',
      uid: 'p3',
      params: { printer: QUEUE, data: [{ type: 'pixel', format: 'pdf', flavor: 'file', data: 'file:///etc/passwd' }] },
    });
    expect((await c.next()).error).toBe('Only http(s) URLs are fetched: send other documents as base64');
    c.send({ call: 'getVersion', uid: 'v2' });
    expect(await c.next()).toEqual({ uid: 'v2', result: '2.2.6' });
    c.ws.close();
  });

  it('answers an unknown printer with an error naming it', async () => {
    const c = await raw(agent.ports.qz);
    c.send({
      call: 'print',
      uid: 'x1',
      params: { printer: { name: 'NoSuchPrinterXYZ' }, options: {}, data: pdfData(A4) },
    });
    expect(await c.next()).toEqual({ uid: 'x1', error: 'Printer "NoSuchPrinterXYZ" could not be found' });
    c.ws.close();
  });

  it('prints with copies, margins and size in inches as QZ sends them', async () => {
    const c = await raw(agent.ports.qz);
    const t = title('raw');
    c.send({
      call: 'print',
      uid: 'r1',
      params: {
        printer: { name: QUEUE },
        options: {
          copies: 2,
          units: 'in',
          size: { width: 4, height: 6 },
          margins: { top: 0.1, left: 0.1 },
          jobName: t,
        },
        data: pdfData(A4),
      },
    });
    expect(await c.next()).toEqual({ uid: 'r1', result: null });
    const info = await pdfInfo(await printed(t));
    expect(info.pages).toBe(2);
    expect(info.size).toMatch(/^288(\.\d+)? x 432(\.\d+)? pts/);
    c.ws.close();
  });

  it('prints a URL of the connected page’s origin, and fetches no other (issue 26, finding 13)', async () => {
    const byUrl = (uid: string, url: string, jobName: string) => ({
      call: 'print',
      uid,
      params: {
        printer: QUEUE,
        options: { jobName },
        data: [{ type: 'pixel', format: 'pdf', flavor: 'file', data: url }],
      },
    });
    // The console's page asks for its own URL: fetched and printed on CUPS.
    const own = await raw(agent.ports.qz, siteOrigin);
    const t = title('url');
    own.send(byUrl('u1', `${siteOrigin}/a4.pdf`, t));
    expect(await own.next()).toEqual({ uid: 'u1', result: null });
    expect((await pdfInfo(await printed(t))).pages).toBe(1);
    expect(siteHits).toEqual(['/a4.pdf']);
    // A 404 there is told as a failed fetch, without the status.
    own.send(byUrl('u2', `${siteOrigin}/gone.pdf`, title('url')));
    expect(await own.next()).toEqual({
      uid: 'u2',
      error: 'Could not fetch the document from the console: print it again',
    });
    own.ws.close();
    // Another allowed page cannot make the agent fetch from this one (loopback, another port).
    const other = await raw(agent.ports.qz, ORIGIN);
    other.send(byUrl('u3', `${siteOrigin}/a4.pdf`, title('url')));
    expect(await other.next()).toEqual({
      uid: 'u3',
      error: `Only URLs of the console (${ORIGIN}) are fetched: send other documents as base64`,
    });
    other.ws.close();
    expect(siteHits).toEqual(['/a4.pdf', '/gone.pdf']);
  });

  it('refuses a wrong or missing Origin with 403 before any WebSocket exists', async () => {
    for (const origin of ['https://evil.example', 'https://console.test.evil.example', undefined]) {
      const r = await refusal(agent.ports.qz, origin);
      expect(r.status).toBe(403);
      expect(r.header).toBe('origin-not-allowed');
      expect(r.body).toContain(`Origin ${origin ?? '(none)'} is not allowed`);
    }
  });
});

describe('Cainiao print component protocol', () => {
  it('lists printers with the default', async () => {
    const c = await raw(agent.ports.cainiao!);
    c.send({ cmd: 'getPrinters', requestID: 'g1', version: '1.0' });
    const r = await c.next();
    expect(r).toMatchObject({ cmd: 'getPrinters', requestID: 'g1', status: 'success', defaultPrinter: QUEUE });
    expect(r.printers).toContainEqual({ name: QUEUE, status: 'enable' });
    expect(r.printers).toContainEqual({ name: SAVE_TO_FOLDER, status: 'enable' });
    c.ws.close();
  });

  it('prints PDF contents and notifies the result per document', async () => {
    const c = await raw(agent.ports.cainiao!);
    const taskID = title('cn');
    c.send({
      cmd: 'print',
      requestID: 'p1',
      version: '1.0',
      task: {
        taskID,
        preview: false,
        printer: QUEUE,
        documents: [
          { documentID: 'd1', contents: [{ contentType: 'pdf', data: A4.toString('base64') }] },
          {
            documentID: 'd2',
            contents: [{ templateURL: 'http://cloudprint.cainiao.com/template/standard/1', data: {} }],
          },
        ],
      },
    });
    const reply = await c.next();
    expect(reply).toMatchObject({ cmd: 'print', requestID: 'p1', taskID, status: 'failed' });
    expect(reply.msg).toMatch(/templates are rendered only by the Cainiao print component/);
    const notice = await c.next();
    expect(notice).toMatchObject({ cmd: 'notifyPrintResult', printer: QUEUE, taskID, taskStatus: 'failed' });
    expect(notice.printStatus).toEqual([
      { documentID: 'd1', status: 'success', msg: '', detail: '' },
      expect.objectContaining({ documentID: 'd2', status: 'failed' }),
    ]);
    // The good document printed anyway: each document is one waybill.
    expect((await pdfInfo(await printed(`cainiao-${taskID}-d1`))).pages).toBe(1);
    c.ws.close();
  });

  it('prints each document on its own page size, and names a failing document by its place in the task (issue 36 #12)', async () => {
    const c = await raw(agent.ports.cainiao!);
    const taskID = title('cnsize');
    const label = makePdf(1); // 100 × 150 mm
    const doc = (id: string, data: string) => ({ documentID: id, contents: [{ contentType: 'pdf', data }] });
    c.send({
      cmd: 'print',
      requestID: 's1',
      version: '1.0',
      task: {
        taskID,
        printer: QUEUE,
        documents: [
          doc('w1', label.toString('base64')),
          doc('w2', A4.toString('base64')),
          doc('w3', Buffer.from('not a pdf at all').toString('base64')),
        ],
      },
    });
    const reply = await c.next();
    expect(reply).toMatchObject({ requestID: 's1', status: 'failed' });
    expect(reply.msg).toMatch(/^Document 3 is not a PDF/);
    const notice = await c.next();
    expect(notice.printStatus.map((p: { documentID: string; status: string }) => [p.documentID, p.status])).toEqual([
      ['w1', 'success'],
      ['w2', 'success'],
      ['w3', 'failed'],
    ]);
    // Without a size CUPS fitted the label to the queue's A4 (595 × 842 pt).
    expect((await pdfInfo(await printed(`cainiao-${taskID}-w1`))).size).toMatch(/^283(\.\d+)? x 425(\.\d+)? pts/);
    expect((await pdfInfo(await printed(`cainiao-${taskID}-w2`))).size).toMatch(/^595(\.\d+)? x 842(\.\d+)? pts/);
    c.ws.close();
  });

  it('answers bad messages, unknown commands and unknown printers with status failed', async () => {
    const c = await raw(agent.ports.cainiao!);
    c.send('nope');
    expect(await c.next()).toEqual({ cmd: null, requestID: null, status: 'failed', msg: 'Invalid message: not JSON' });
    c.send({ cmd: 'getPrinterConfig', requestID: 'u1', version: '1.0', printer: QUEUE });
    expect(await c.next()).toMatchObject({ cmd: 'getPrinterConfig', requestID: 'u1', status: 'failed' });
    c.send({
      cmd: 'print',
      requestID: 'u2',
      task: {
        taskID: 't',
        printer: 'NoSuchPrinterXYZ',
        documents: [{ documentID: 'd', contents: [{ contentType: 'pdf', data: A4.toString('base64') }] }],
      },
    });
    expect(await c.next()).toMatchObject({
      requestID: 'u2',
      status: 'failed',
      msg: 'Printer "NoSuchPrinterXYZ" could not be found',
    });
    expect(await c.next()).toMatchObject({ cmd: 'notifyPrintResult', taskStatus: 'failed' });
    c.send({ cmd: 'getAgentInfo', requestID: 'a1', version: '1.0' });
    expect(await c.next()).toMatchObject({ requestID: 'a1', status: 'success' });
    c.ws.close();
  });

  it('refuses a wrong Origin as the QZ port does', async () => {
    expect((await refusal(agent.ports.cainiao!, 'https://evil.example')).status).toBe(403);
  });
});

describe('concurrent calls', () => {
  it('answers calls sent at once, each under its own uid', async () => {
    const c = await raw(agent.ports.qz);
    const uids = Array.from({ length: 5 }, (_, i) => `f${i}`);
    for (const uid of uids) c.send({ call: 'printers.find', uid, params: { query: QUEUE } });
    const replies = await Promise.all(uids.map(() => c.next()));
    expect(replies.map((r) => r.uid).sort()).toEqual(uids);
    expect(replies.every((r) => r.result === QUEUE)).toBe(true);
    c.ws.close();
  });
});
