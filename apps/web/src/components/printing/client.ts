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

/**
 * A failure the print UI names: nothing answers at the agent's address (`unreachable`), an
 * agent answers there but its PRINT_AGENT_ORIGINS leaves this console out (`refused`), or the
 * agent refused a call (`call`, its own words).
 */
export class PrintError extends Error {
  override readonly name = 'PrintError';
  readonly kind: 'unreachable' | 'refused' | 'call';
  constructor(kind: 'unreachable' | 'refused' | 'call', message: string) {
    super(message);
    this.kind = kind;
  }
}

/** The agent's virtual printer (apps/print-agent): it works without CUPS. */
export const SAVE_TO_FOLDER = 'Save to PDF folder';

/**
 * What the print agent's `GET /status` answers (apps/print-agent/src/server.ts, AgentStatus):
 * the fields read here. A real QZ Tray has no such answer (null).
 */
export interface AgentStatus {
  agent: 'print-agent';
  originAllowed: boolean;
  cups?: 'running' | 'not-running' | 'missing';
}

/**
 * Asks the agent why: a refused WebSocket upgrade fails in the browser exactly as a closed port
 * does (the 403 is hidden from pages), so the connection's failure alone cannot say which.
 */
export async function agentStatus(s: Pick<PrintSettings, 'agentHost' | 'agentPort'>): Promise<AgentStatus | null> {
  try {
    const r = await fetch(`http://${s.agentHost}:${s.agentPort}/status`, {
      cache: 'no-store',
      signal: AbortSignal.timeout(3000),
    });
    const body = (await r.json()) as Partial<AgentStatus> | null;
    return r.ok && body?.agent === 'print-agent' && typeof body.originAllowed === 'boolean'
      ? (body as AgentStatus)
      : null;
  } catch {
    return null;
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
      const status = await agentStatus(s);
      if (status && !status.originAllowed) throw new PrintError('refused', location.origin);
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

/** Why only "Save to PDF folder" (or nothing) is offered: CUPS, which every other printer needs. */
export type NoPrinter = 'cupsNotRunning' | 'cupsMissing' | 'noQueue' | 'none';

/** The agent's printers and its default one; `noPrinter` when it has no real printer, and why. */
export async function listPrinters(
  s: PrintSettings,
): Promise<{ printers: string[]; defaultPrinter: string | null; noPrinter: NoPrinter | null }> {
  const found = await callAgent(s, async (qz) => {
    const printers = ((await qz.printers.find()) as string[] | string) ?? [];
    const defaultPrinter = ((await qz.printers.getDefault()) as string | null) ?? null;
    return { printers: Array.isArray(printers) ? printers : [printers], defaultPrinter };
  });
  if (found.printers.some((p) => p !== SAVE_TO_FOLDER)) return { ...found, noPrinter: null };
  const cups = (await agentStatus(s))?.cups;
  const noPrinter =
    cups === 'not-running' ? 'cupsNotRunning' : cups === 'missing' ? 'cupsMissing' : cups ? 'noQueue' : 'none';
  return { ...found, noPrinter };
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
