import { z } from 'zod';
import { CupsError } from './cups.ts';
import { fetchPdf, fromBase64 } from './documents.ts';
import { PrintError, type PrintCore, type PrintJob } from './printing.ts';

/**
 * The subset of QZ Tray's WebSocket protocol the console uses, answered the way QZ Tray 2.2
 * answers the official `qz-tray` client: every request `{call, params, uid, …}` gets
 * `{uid, result}` or `{uid, error}`.
 */

/**
 * Reported by getVersion. The client adapts what it sends to the version (2.0 and 2.1 get older
 * shapes), so the agent claims the QZ version whose shapes it implements.
 */
export const QZ_VERSION = '2.2.6';

export type Reply = { uid: unknown; result?: unknown; error?: string };

const units = { in: 25.4, mm: 1, cm: 10 } as const;

const sides = z.object({
  top: z.number().nonnegative().default(0),
  right: z.number().nonnegative().default(0),
  bottom: z.number().nonnegative().default(0),
  left: z.number().nonnegative().default(0),
});

const printParams = z.object({
  // qz.configs.create('Name') sends {name}; a bare string is accepted from raw clients.
  printer: z.union([z.string(), z.object({ name: z.string() })]).transform((p) => (typeof p === 'string' ? p : p.name)),
  options: z
    .object({
      copies: z.number().int().min(1).max(999).default(1),
      units: z.enum(['in', 'mm', 'cm']).default('in'),
      size: z.object({ width: z.number().positive(), height: z.number().positive() }).nullish(),
      margins: z.union([z.number().nonnegative(), sides]).nullish(),
      orientation: z.enum(['portrait', 'landscape', 'reverse-landscape']).nullish(),
      scaleContent: z.boolean().nullish(),
      jobName: z.string().nullish(),
    })
    .default({ copies: 1, units: 'in' }),
  data: z
    .array(
      z.object({
        type: z.string().optional(),
        format: z.string().optional(),
        flavor: z.string().optional(),
        data: z.string(),
      }),
      { error: 'data must be a list of {type: "pixel", format: "pdf", flavor: "base64" | "file", data}' },
    )
    .min(1),
});

/** A print call's params as a job for the core (lengths converted to millimetres). */
export async function toJob(params: unknown, origin?: string): Promise<PrintJob> {
  const parsed = printParams.safeParse(params);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new PrintError(`Invalid print params: ${first.path.join('.') || 'params'}: ${first.message}`);
  }
  const { printer, options: o, data } = parsed.data;
  const k = units[o.units];
  const documents: Buffer[] = [];
  for (const [i, d] of data.entries()) {
    const type = (d.type ?? 'pixel').toLowerCase();
    const format = (d.format ?? '').toLowerCase();
    if (type !== 'pixel' || format !== 'pdf') {
      throw new PrintError(
        `Unsupported data ${i + 1} (type ${type}, format ${format || 'none'}): only PDFs are printed (type "pixel", format "pdf")`,
      );
    }
    // QZ's default flavor for a PDF is "file": a URL to fetch.
    const flavor = (d.flavor ?? 'file').toLowerCase();
    if (flavor === 'base64') documents.push(fromBase64(d.data));
    else if (flavor === 'file') documents.push(await fetchPdf(d.data, origin));
    else throw new PrintError(`Unsupported flavor "${flavor}" for a PDF: use "base64" or "file" (a URL)`);
  }
  const m = o.margins;
  return {
    printer,
    documents,
    copies: o.copies,
    size: o.size ? { width: o.size.width * k, height: o.size.height * k } : undefined,
    margins:
      m == null
        ? undefined
        : typeof m === 'number'
          ? { top: m * k, right: m * k, bottom: m * k, left: m * k }
          : { top: m.top * k, right: m.right * k, bottom: m.bottom * k, left: m.left * k },
    orientation: o.orientation ?? undefined,
    scaleContent: o.scaleContent ?? undefined,
    jobName: o.jobName ?? undefined,
  };
}

/** QZ Tray's own matching: exact name, then ignoring case, then a part of the name. */
export function matchPrinter(names: string[], query: string): string | undefined {
  const q = query.toLowerCase();
  return (
    names.find((n) => n === query) ??
    names.find((n) => n.toLowerCase() === q) ??
    names.find((n) => n.toLowerCase().includes(q))
  );
}

export const SUPPORTED_CALLS = ['getVersion', 'printers.find', 'printers.getDefault', 'printers.details', 'print'];

/** Who sent a message: the page's Origin (URLs are fetched from it only) and the agent's log. */
export interface Sender {
  origin?: string;
  log?: (line: string) => void;
}

/** An unexpected failure: its text (paths, library messages) goes to the agent's log, not to the page. */
export const INTERNAL_ERROR = 'Internal error in the print agent: see its log';

/**
 * Answers one text message; null when nothing is to be sent (the client's keep-alive "ping").
 * Never throws: every failure becomes an error reply.
 */
export async function handleQzMessage(core: PrintCore, text: string, sender: Sender = {}): Promise<Reply | null> {
  if (text === 'ping') return null;
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return { uid: null, error: 'Invalid message: not JSON' };
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
    return { uid: null, error: 'Invalid message: expected a JSON object' };
  }
  const { uid = null, call, params } = msg as { uid?: unknown; call?: unknown; params?: unknown };
  // The handshake: the client sends the site's certificate (null when it has none) before any
  // call. Signatures are not checked (QZ Tray's "allow unsigned"): the Origin check guards the agent.
  if (call === undefined && 'certificate' in msg) return { uid, result: null };
  if (typeof call !== 'string') return { uid, error: 'Invalid message: no call' };
  try {
    return { uid, result: await dispatch(core, call, params, sender.origin) };
  } catch (e) {
    if (e instanceof PrintError || e instanceof CupsError) return { uid, error: e.message };
    sender.log?.(`qz: ${call} failed: ${(e as Error).stack ?? String(e)}`);
    return { uid, error: INTERNAL_ERROR };
  }
}

async function dispatch(core: PrintCore, call: string, params: unknown, origin?: string): Promise<unknown> {
  switch (call) {
    case 'getVersion':
      return QZ_VERSION;
    case 'printers.find': {
      const names = (await core.printers()).map((p) => p.name);
      const query = (params as { query?: unknown } | null | undefined)?.query;
      if (query == null || query === '') return names;
      if (typeof query !== 'string') throw new PrintError('Invalid params: query must be a string');
      const found = matchPrinter(names, query);
      // QZ Tray's own message, which consoles written for QZ already recognise.
      if (!found) throw new PrintError('Specified printer could not be found.');
      return found;
    }
    case 'printers.getDefault':
      return core.defaultPrinter();
    // The client's qz.printers.details() sends "printers.detail".
    case 'printers.detail':
    case 'printers.details':
      return core.printers();
    case 'print':
      await core.print(await toJob(params, origin));
      // QZ Tray resolves a print with nothing once the job is spooled.
      return null;
    default:
      throw new PrintError(`Unsupported call "${call}": this agent implements ${SUPPORTED_CALLS.join(', ')}`);
  }
}
