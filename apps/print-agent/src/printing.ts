import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as cups from './cups.ts';

/**
 * The printing core both protocols (QZ Tray's and Cainiao's) share: the OS's printers through
 * CUPS plus one virtual printer that saves the PDF into a folder.
 */

export const SAVE_TO_FOLDER = 'Save to PDF folder';

export interface PrinterDetails {
  name: string;
  default: boolean;
  /** CUPS device URI, or file:// of the folder for the virtual printer. */
  connection: string | null;
  driver: string | null;
  status: 'enabled' | 'disabled';
}

/** Lengths in millimetres: the protocols convert their units before they get here. */
export interface PrintJob {
  printer: string;
  documents: Buffer[];
  copies: number;
  size?: { width: number; height: number };
  margins?: { top: number; right: number; bottom: number; left: number };
  orientation?: 'portrait' | 'landscape' | 'reverse-landscape';
  scaleContent?: boolean;
  jobName?: string;
}

export interface PrintResult {
  /** CUPS job ids, or the saved files for the virtual printer. */
  jobs: string[];
}

export class PrintError extends Error {}

/** How far from the end the trailer (`startxref` … `%%EOF`) may be: writers may pad after it. */
const TRAILER_BYTES = 1024;

/**
 * Why `b` is not a PDF a printer can take, or null when it is: the header at the very start,
 * then a trailer near the end (`startxref <offset>` and `%%EOF`), and at that offset a
 * cross-reference table (`xref`) or stream (`N G obj << /Type /XRef …`). A file cut short, or
 * data with a `%PDF-` somewhere in it, is refused here rather than by the printer's filter
 * (which prints garbage or nothing, and says so to no one).
 */
export function pdfProblem(b: Buffer): string | null {
  if (b.subarray(0, 5).toString('latin1') !== '%PDF-') return 'it does not start with %PDF-';
  const from = Math.max(0, b.length - TRAILER_BYTES);
  const tail = b.subarray(from).toString('latin1');
  const trailers = [...tail.matchAll(/startxref\s+(\d+)\s+%%EOF/g)];
  const last = trailers.at(-1);
  if (!last) return 'it is cut short: no startxref and %%EOF at its end';
  const at = Number(last[1]);
  if (!Number.isSafeInteger(at) || at < 5 || at >= from + last.index) return 'its startxref points outside the file';
  const xref = b.subarray(at, at + 256).toString('latin1');
  if (/^xref\s/.test(xref)) return null;
  if (/^\d+\s+\d+\s+obj\s*<<[\s\S]*\/Type\s*\/XRef\b/.test(xref)) return null;
  return 'no cross-reference table where its startxref points';
}

/**
 * The first page's size in millimetres from its /MediaBox, or null when the page dictionary is
 * not readable as text (inside a compressed object stream). Cainiao's protocol carries no paper
 * size (the real component takes it from its template); without one CUPS fits the label to the
 * queue's default paper, A4 (issue 36 #12). The console's labels are written by pdfkit, whose
 * page dictionaries are plain text.
 */
export function firstPageSizeMm(pdf: Buffer): { width: number; height: number } | null {
  const m = /\/MediaBox\s*\[\s*(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s*\]/.exec(pdf.toString('latin1'));
  if (!m) return null;
  const [x0, y0, x1, y1] = m.slice(1).map(Number);
  const mm = (pt: number) => Math.round((Math.abs(pt) / 72) * 25.4 * 100) / 100;
  const width = mm(x1 - x0);
  const height = mm(y1 - y0);
  return width > 0 && height > 0 && Number.isFinite(width + height) ? { width, height } : null;
}

const num = (n: number) => String(Math.round(n * 100) / 100);
const points = (mm: number) => String(Math.max(0, Math.round((mm / 25.4) * 72)));

/** The `lp` options for a job (without -d and the document). */
export function lpOptions(job: PrintJob): string[] {
  const o: string[] = ['-t', job.jobName || 'print-agent'];
  if (job.copies > 1) {
    // cups-pdf and many drivers leave copies to the device: with collate, CUPS's own PDF filter
    // repeats the pages itself (checked against cups-pdf: 3 copies of 1 page = 3 pages).
    o.push('-n', String(job.copies), '-o', 'collate=true');
  }
  if (job.size) o.push('-o', `media=Custom.${num(job.size.width)}x${num(job.size.height)}mm`);
  if (job.margins) {
    const m = job.margins;
    o.push('-o', `page-top=${points(m.top)}`, '-o', `page-right=${points(m.right)}`);
    o.push('-o', `page-bottom=${points(m.bottom)}`, '-o', `page-left=${points(m.left)}`);
  }
  if (job.orientation) {
    const code = { portrait: 3, landscape: 4, 'reverse-landscape': 5 }[job.orientation];
    o.push('-o', `orientation-requested=${code}`);
  }
  if (job.scaleContent !== false) o.push('-o', 'fit-to-page');
  return o;
}

export interface PrintCoreOptions {
  pdfDir: string;
}

export class PrintCore {
  private readonly options: PrintCoreOptions;

  constructor(options: PrintCoreOptions) {
    this.options = options;
  }

  /**
   * The OS's printers and the virtual printer last. CUPS absent (Windows) or its scheduler not
   * answering leaves the OS's list empty, never the whole answer: "Save to PDF folder" does not
   * depend on CUPS, and the console tells why there is no other printer (`cupsState`).
   */
  async printers(): Promise<PrinterDetails[]> {
    let os: cups.OsPrinter[] = [];
    let def: string | null = null;
    let devs = new Map<string, string>();
    try {
      [os, def, devs] = await Promise.all([cups.listPrinters(), cups.defaultPrinter(), cups.devices()]);
    } catch (e) {
      if (!(e instanceof cups.CupsError)) throw e;
    }
    return [
      ...os.map((p) => ({
        name: p.name,
        default: p.name === def,
        connection: devs.get(p.name) ?? null,
        driver: null,
        status: p.enabled ? ('enabled' as const) : ('disabled' as const),
      })),
      {
        name: SAVE_TO_FOLDER,
        default: false,
        connection: `file://${this.options.pdfDir}`,
        driver: 'print-agent folder',
        status: 'enabled',
      },
    ];
  }

  /** The default OS printer; null without one, and when CUPS cannot be asked (see `printers`). */
  async defaultPrinter(): Promise<string | null> {
    try {
      return await cups.defaultPrinter();
    } catch (e) {
      if (e instanceof cups.CupsError) return null;
      throw e;
    }
  }

  /** Why the OS offers no printer, for the status page: CUPS missing, or its scheduler down. */
  cupsState(): Promise<'running' | 'not-running' | 'missing'> {
    return cups.schedulerState();
  }

  async print(job: PrintJob): Promise<PrintResult> {
    if (job.documents.length === 0) throw new PrintError('Nothing to print: no document');
    job.documents.forEach((d, i) => {
      const problem = pdfProblem(d);
      if (problem) throw new PrintError(`Document ${i + 1} is not a PDF: ${problem}`);
    });
    if (!Number.isInteger(job.copies) || job.copies < 1 || job.copies > 999) {
      throw new PrintError('copies must be a whole number from 1 to 999');
    }
    if (job.printer === SAVE_TO_FOLDER) return this.save(job);
    const jobs: string[] = [];
    const options = lpOptions(job);
    // One CUPS job per document, in order: a document refused stops the rest, as a printer would.
    for (const doc of job.documents) jobs.push(await cups.lp(job.printer, options, doc));
    return { jobs };
  }

  /**
   * Writes each document once, with the copy count in its name ("-x3"): three identical files
   * would only fill the folder.
   */
  private async save(job: PrintJob): Promise<PrintResult> {
    await mkdir(this.options.pdfDir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const base = (job.jobName || 'print').replace(/[^\p{L}\p{N}._-]+/gu, '_').slice(0, 80);
    const jobs: string[] = [];
    for (const [i, doc] of job.documents.entries()) {
      const parts = [stamp, base];
      if (job.documents.length > 1) parts.push(String(i + 1));
      if (job.copies > 1) parts.push(`x${job.copies}`);
      // A random tail: two jobs in the same millisecond must not overwrite each other.
      parts.push(randomBytes(3).toString('hex'));
      const file = path.join(this.options.pdfDir, `${parts.join('-')}.pdf`);
      await writeFile(file, doc, { flag: 'wx' });
      jobs.push(file);
    }
    return { jobs };
  }
}
