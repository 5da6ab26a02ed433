import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleCainiaoMessage } from '../src/cainiao.ts';
import { fetchPdf } from '../src/documents.ts';
import { pdfProblem, PrintCore, SAVE_TO_FOLDER } from '../src/printing.ts';
import { handleQzMessage } from '../src/qz.ts';
import { makePdf } from './pdf.ts';

/**
 * Issue 26, finding 13: the agent took any data with "%PDF-" in its first KB as a PDF, and
 * fetched any URL (loopback, the intranet) for a page, echoing the HTTP status. It checks the
 * PDF's structure now, and fetches only from the page's own origin, telling no remote status.
 * Printing goes to the save-to-folder printer here (no CUPS needed); agent.test.ts prints on CUPS.
 */
const PDF = makePdf(1);

/** A local web server that counts requests per path: the console, or someone else. */
async function server(routes: Record<string, (res: http.ServerResponse) => void>) {
  const hits: string[] = [];
  const s = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const route = routes[req.url ?? ''];
    if (route) route(res);
    else res.writeHead(404).end('no such document');
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return { origin, hits, close: () => new Promise<void>((r) => s.close(() => r())) };
}

let consoleSite: Awaited<ReturnType<typeof server>>;
let intranet: Awaited<ReturnType<typeof server>>;
let pdfDir: string;
let core: PrintCore;

beforeAll(async () => {
  intranet = await server({
    '/secret.pdf': (res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(PDF),
  });
  consoleSite = await server({
    '/label.pdf': (res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(PDF),
    '/broken': (res) => res.writeHead(503).end('upstream db-7.internal:5432 refused'),
    '/away': (res) => res.writeHead(302, { location: `${intranet.origin}/secret.pdf` }).end(),
  });
  pdfDir = mkdtempSync(path.join(os.tmpdir(), 'print-agent-docs-'));
  core = new PrintCore({ pdfDir });
});
afterAll(async () => {
  await consoleSite?.close();
  await intranet?.close();
  if (pdfDir) rmSync(pdfDir, { recursive: true, force: true });
});

describe('finding 13: only PDFs are printed', () => {
  it('accepts a whole PDF, with an xref table or an xref stream, padding after %%EOF', () => {
    expect(pdfProblem(PDF)).toBeNull();
    expect(pdfProblem(Buffer.concat([PDF, Buffer.from('\n\0\0\r\n')]))).toBeNull();
    // A PDF 1.5 cross-reference stream where startxref points (as pdfkit and browsers write).
    const head = '%PDF-1.5\n1 0 obj\n<< /Type /Catalog >>\nendobj\n';
    const stream = `2 0 obj\n<< /Type /XRef /Size 3 /W [1 2 1] /Length 0 >>\nstream\n\nendstream\nendobj\n`;
    const xrefStream = Buffer.from(`${head}${stream}startxref\n${head.length}\n%%EOF\n`, 'latin1');
    expect(pdfProblem(xrefStream)).toBeNull();
  });

  it('refuses %PDF- past the start, a truncated PDF, a wrong startxref and a non-PDF, with the reason', () => {
    const late = Buffer.concat([Buffer.alloc(500, 'x'), PDF]);
    expect(pdfProblem(late)).toBe('it does not start with %PDF-');
    expect(pdfProblem(PDF.subarray(0, Math.floor(PDF.length * 0.8)))).toBe(
      'it is cut short: no startxref and %%EOF at its end',
    );
    const text = PDF.toString('latin1');
    const moved = text.replace(/startxref\n(\d+)/, (_m, n: string) => `startxref\n${Number(n) - 7}`);
    expect(pdfProblem(Buffer.from(moved, 'latin1'))).toBe('no cross-reference table where its startxref points');
    const past = text.replace(/startxref\n(\d+)/, 'startxref\n99999999');
    expect(pdfProblem(Buffer.from(past, 'latin1'))).toBe('its startxref points outside the file');
    expect(pdfProblem(Buffer.from('hello'))).toBe('it does not start with %PDF-');
    expect(pdfProblem(Buffer.from('%PDF-1.4 and nothing else'))).toBe(
      'it is cut short: no startxref and %%EOF at its end',
    );
  });

  it('answers the page with the reason, and a valid PDF prints', async () => {
    const send = (data: Buffer) =>
      handleQzMessage(
        core,
        JSON.stringify({
          call: 'print',
          uid: 'p',
          params: {
            printer: SAVE_TO_FOLDER,
            options: { jobName: 'docs' },
            data: [{ type: 'pixel', format: 'pdf', flavor: 'base64', data: data.toString('base64') }],
          },
        }),
      );
    expect(await send(Buffer.concat([Buffer.alloc(500, ' '), PDF]))).toEqual({
      uid: 'p',
      error: 'Document 1 is not a PDF: it does not start with %PDF-',
    });
    expect(await send(PDF.subarray(0, PDF.length - 30))).toEqual({
      uid: 'p',
      error: 'Document 1 is not a PDF: it is cut short: no startxref and %%EOF at its end',
    });
    expect(readdirSync(pdfDir)).toEqual([]);
    expect(await send(PDF)).toEqual({ uid: 'p', result: null });
    const saved = readdirSync(pdfDir);
    expect(saved).toHaveLength(1);
    expect(readFileSync(path.join(pdfDir, saved[0]!)).equals(PDF)).toBe(true);
    rmSync(path.join(pdfDir, saved[0]!));
  });
});

describe('finding 13: URLs are fetched from the console only', () => {
  it('fetches a URL of the page’s own origin', async () => {
    const body = await fetchPdf(`${consoleSite.origin}/label.pdf`, consoleSite.origin);
    expect(body.equals(PDF)).toBe(true);
    expect(consoleSite.hits).toContain('/label.pdf');
  });

  it('refuses another origin, loopback on another port, file: and the like without a request', async () => {
    const before = intranet.hits.length;
    const refused = `Only URLs of the console (${consoleSite.origin}) are fetched: send other documents as base64`;
    const port = new URL(consoleSite.origin).port;
    for (const url of [
      `${intranet.origin}/secret.pdf`, // loopback, another port
      `http://localhost:${port}/label.pdf`, // the same server under another name is another origin
      `https://127.0.0.1:${port}/label.pdf`, // another scheme
      `http://10.0.0.1/secret.pdf`, // the intranet
      `http://169.254.169.254/latest/meta-data/`,
    ])
      await expect(fetchPdf(url, consoleSite.origin), url).rejects.toThrow(refused);
    for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/x.pdf', 'data:application/pdf;base64,JVBERi0='])
      await expect(fetchPdf(url, consoleSite.origin), url).rejects.toThrow(
        'Only http(s) URLs are fetched: send other documents as base64',
      );
    // No page origin (a local program with PRINT_AGENT_ORIGINS=*): nothing is fetched.
    await expect(fetchPdf(`${intranet.origin}/secret.pdf`, undefined)).rejects.toThrow(/Only URLs of the console/);
    expect(intranet.hits.length).toBe(before);
  });

  it('follows no redirect away, and never tells the remote status or error', async () => {
    const before = intranet.hits.length;
    const failed = 'Could not fetch the document from the console: print it again';
    await expect(fetchPdf(`${consoleSite.origin}/away`, consoleSite.origin)).rejects.toThrow(failed);
    expect(intranet.hits.length).toBe(before);
    for (const p of ['/broken', '/missing']) {
      const e = await fetchPdf(`${consoleSite.origin}${p}`, consoleSite.origin).catch((x: Error) => x);
      expect((e as Error).message).toBe(failed);
    }
    // A closed port: the network error's text (ECONNREFUSED, the address) stays in the agent.
    const closed = await server({});
    await closed.close();
    const e = await fetchPdf(`${closed.origin}/label.pdf`, closed.origin).catch((x: Error) => x);
    expect((e as Error).message).toBe(failed);
  });

  it('binds both protocols to the sending page’s origin', async () => {
    const qzPrint = (url: string, origin: string) =>
      handleQzMessage(
        core,
        JSON.stringify({
          call: 'print',
          uid: 'u',
          params: { printer: SAVE_TO_FOLDER, data: [{ type: 'pixel', format: 'pdf', flavor: 'file', data: url }] },
        }),
        { origin },
      );
    const before = intranet.hits.length;
    expect((await qzPrint(`${intranet.origin}/secret.pdf`, consoleSite.origin))?.error).toMatch(
      /^Only URLs of the console/,
    );
    expect(await qzPrint(`${consoleSite.origin}/label.pdf`, consoleSite.origin)).toEqual({ uid: 'u', result: null });

    const cainiao = await handleCainiaoMessage(
      core,
      JSON.stringify({
        cmd: 'print',
        requestID: 'r',
        task: {
          taskID: 't',
          printer: SAVE_TO_FOLDER,
          documents: [
            { documentID: 'ok', contents: [{ contentType: 'pdf', url: `${consoleSite.origin}/label.pdf` }] },
            { documentID: 'no', contents: [{ contentType: 'pdf', url: `${intranet.origin}/secret.pdf` }] },
          ],
        },
      }),
      { origin: consoleSite.origin },
    );
    expect(cainiao[1]!.printStatus).toEqual([
      { documentID: 'ok', status: 'success', msg: '', detail: '' },
      expect.objectContaining({
        documentID: 'no',
        status: 'failed',
        msg: expect.stringMatching(/^Only URLs of the console/),
      }),
    ]);
    expect(intranet.hits.length).toBe(before);
    expect(readdirSync(pdfDir)).toHaveLength(2);
  });
});
