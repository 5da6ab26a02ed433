/**
 * The console's print client: talks to the local print agent (apps/print-agent) or a real QZ
 * Tray through the official `qz-tray` client, loaded only when something prints (it is not in
 * the login or first-screen bundles). No certificate or signature promise is set: the agent
 * accepts unsigned requests and guards itself by the page's origin and a loopback binding.
 */
import { qzOptions, type PrintSettings } from './settings.ts';

type Qz = any;
let loaded: Promise<Qz> | null = null;
/** The host:port the open connection goes to; another address closes it and connects again. */
let connectedTo: string | null = null;
let connecting: Promise<Qz> | null = null;

/** A failure the print UI names: the agent could not be reached, or it refused a call. */
export class PrintError extends Error {
  override readonly name = 'PrintError';
  readonly kind: 'unreachable' | 'call';
  constructor(kind: 'unreachable' | 'call', message: string) {
    super(message);
    this.kind = kind;
  }
}

function load(): Promise<Qz> {
  loaded ??= import('qz-tray').then((m) => m.default ?? m);
  return loaded;
}

/** Connects (once per address) and answers the client. */
export async function agent(s: Pick<PrintSettings, 'agentHost' | 'agentPort'>): Promise<Qz> {
  const qz = await load();
  const address = `${s.agentHost}:${s.agentPort}`;
  if (qz.websocket.isActive() && connectedTo === address) return qz;
  if (connecting) {
    await connecting.catch(() => undefined);
    if (qz.websocket.isActive() && connectedTo === address) return qz;
  }
  connecting = (async () => {
    if (qz.websocket.isActive()) await qz.websocket.disconnect();
    connectedTo = null;
    try {
      await qz.websocket.connect({
        host: s.agentHost,
        port: { secure: [], insecure: [s.agentPort] },
        usingSecure: false,
        retries: 0,
      });
    } catch (e) {
      throw new PrintError('unreachable', e instanceof Error ? e.message : String(e));
    }
    connectedTo = address;
    return qz;
  })();
  try {
    return await connecting;
  } finally {
    connecting = null;
  }
}

async function callAgent<T>(s: PrintSettings, run: (qz: Qz) => Promise<T>): Promise<T> {
  const qz = await agent(s);
  try {
    return await run(qz);
  } catch (e) {
    throw new PrintError('call', e instanceof Error ? e.message : String(e));
  }
}

/** The agent's printers and its default one. */
export async function listPrinters(s: PrintSettings): Promise<{ printers: string[]; defaultPrinter: string | null }> {
  return callAgent(s, async (qz) => {
    const printers = ((await qz.printers.find()) as string[] | string) ?? [];
    const defaultPrinter = ((await qz.printers.getDefault()) as string | null) ?? null;
    return { printers: Array.isArray(printers) ? printers : [printers], defaultPrinter };
  });
}

/** Reads a blob as base64 (without the data: prefix). */
export async function blobBase64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let s = '';
  // In slices: String.fromCharCode with a whole label PDF's bytes overflows the call stack.
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Sends a PDF to the printer with the user's paper and margins; resolves once the agent accepted the job. */
export async function printPdf(s: PrintSettings, printer: string, pdf: Blob, jobName: string): Promise<void> {
  const data = await blobBase64(pdf);
  await callAgent(s, (qz) =>
    qz.print(qz.configs.create(printer, qzOptions(s, jobName)), [
      { type: 'pixel', format: 'pdf', flavor: 'base64', data },
    ]),
  );
}
