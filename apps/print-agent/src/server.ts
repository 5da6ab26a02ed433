import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { handleCainiaoMessage } from './cainiao.ts';
import type { AgentConfig } from './config.ts';
import { MAX_DOCUMENT_BYTES } from './documents.ts';
import { PrintCore } from './printing.ts';
import { handleQzMessage, QZ_VERSION } from './qz.ts';

export interface Agent {
  /** Bound ports (null when that server is not running). */
  ports: { qz: number; qzSecure: number | null; cainiao: number | null };
  close(): Promise<void>;
}

type Log = (line: string) => void;

/** Base64 grows a document by a third; the rest of a message is small. */
const MAX_MESSAGE_BYTES = Math.ceil((MAX_DOCUMENT_BYTES * 4) / 3) + 1024 * 1024;

export function originAllowed(config: Pick<AgentConfig, 'origins'>, origin: string | undefined): boolean {
  if (config.origins === '*') return true;
  // Browsers always send Origin on a WebSocket; a missing one is refused too (only local programs
  // omit it, and they can set it).
  return origin !== undefined && config.origins.includes(origin.replace(/\/$/, ''));
}

/**
 * Refuses the upgrade with 403 before any WebSocket exists: the qz-tray client's connect() then
 * rejects at once, which it would not do if an opened socket were closed under it.
 */
function refuse(socket: Duplex, origin: string | undefined) {
  const body = `Origin ${origin ?? '(none)'} is not allowed by this print agent (PRINT_AGENT_ORIGINS)\n`;
  socket.end(
    'HTTP/1.1 403 Forbidden\r\n' +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'X-Print-Agent-Error: origin-not-allowed\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** Where a page asks why it cannot connect or print (see answerStatus). */
export const STATUS_PATH = '/status';

/** What `GET /status` answers (the console's print client reads it). */
export interface AgentStatus {
  agent: 'print-agent';
  version: string;
  /** The asking page's Origin, and whether PRINT_AGENT_ORIGINS lets it connect. */
  origin: string | null;
  originAllowed: boolean;
  /** The setting that allows it: the console names it to the user. */
  originsSetting: 'PRINT_AGENT_ORIGINS';
  /** Only for an allowed origin: whether CUPS (every printer but "Save to PDF folder") can be reached. */
  cups?: 'running' | 'not-running' | 'missing';
}

/**
 * `GET /status`: a refused WebSocket upgrade reaches a page as a bare failure, the same as no
 * agent at all (browsers hide the 403), and a printer list with only the folder printer does not
 * say why. This answer, readable cross-origin, tells the page which it is. A page that is not
 * allowed learns only that the agent runs and refuses it; the rest is for allowed pages.
 */
async function answerStatus(
  config: AgentConfig,
  core: PrintCore,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const origin = req.headers.origin;
  const headers: Record<string, string> = {
    'Access-Control-Allow-Origin': origin ?? '*',
    Vary: 'Origin',
    'Cache-Control': 'no-store',
  };
  if (req.method === 'OPTIONS') {
    // Chrome's Private Network Access preflight, for a console on a public address.
    res.writeHead(204, {
      ...headers,
      'Access-Control-Allow-Methods': 'GET',
      'Access-Control-Allow-Private-Network': 'true',
    });
    res.end();
    return;
  }
  if (req.method !== 'GET') {
    res.writeHead(405, { ...headers, Allow: 'GET, OPTIONS' });
    res.end();
    return;
  }
  const allowed = originAllowed(config, origin);
  const status: AgentStatus = {
    agent: 'print-agent',
    version: QZ_VERSION,
    origin: origin ?? null,
    originAllowed: allowed,
    originsSetting: 'PRINT_AGENT_ORIGINS',
    ...(allowed ? { cups: await core.cupsState() } : {}),
  };
  res.writeHead(200, { ...headers, 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(status));
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => {
      server.off('listening', onListening);
      reject(e);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

export async function startAgent(config: AgentConfig, log: Log = () => {}): Promise<Agent> {
  const core = new PrintCore({ pdfDir: config.pdfDir });
  const servers: http.Server[] = [];
  const sockets: WebSocketServer[] = [];

  const wsServer = (name: string, handle: (text: string, origin: string | undefined) => Promise<object[]>) => {
    const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
    wss.on('connection', (ws: WebSocket, origin: string | undefined) => {
      log(`${name}: connected from ${origin ?? '(no origin)'}`);
      ws.on('error', (e) => log(`${name}: socket error: ${e.message}`));
      ws.on('message', (data, isBinary) => {
        const text = isBinary ? '' : data.toString();
        handle(text, origin).then(
          (replies) => {
            for (const r of replies) if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(r));
          },
          (e: Error) => log(`${name}: unexpected failure: ${e.stack ?? e.message}`),
        );
      });
    });
    sockets.push(wss);
    return wss;
  };

  // The page's Origin goes with each message: documents by URL are fetched from it only.
  const qz = wsServer('qz', async (text, origin) => {
    const reply = await handleQzMessage(core, text, { origin, log });
    return reply ? [reply] : [];
  });
  const cainiao = wsServer('cainiao', (text, origin) => handleCainiaoMessage(core, text, { origin, log }));

  const makeServer = (wss: WebSocketServer, tls?: { cert: string; key: string }) => {
    const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (req.url?.split('?')[0] === STATUS_PATH) {
        void answerStatus(config, core, req, res).catch((e: Error) => {
          log(`status: unexpected failure: ${e.stack ?? e.message}`);
          if (!res.headersSent) res.writeHead(500);
          res.end();
        });
        return;
      }
      res.writeHead(426, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Print agent: connect with a WebSocket\n');
    };
    const server: http.Server = tls
      ? (https.createServer(
          { cert: readFileSync(tls.cert), key: readFileSync(tls.key) },
          onRequest,
        ) as unknown as http.Server)
      : http.createServer(onRequest);
    server.on('upgrade', (req, socket, head) => {
      const origin = req.headers.origin;
      if (!originAllowed(config, origin)) {
        log(`refused a connection from origin ${origin ?? '(none)'}`);
        refuse(socket, origin);
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, origin));
    });
    servers.push(server);
    return server;
  };

  /**
   * Binds one port on every configured host (IPv4 and IPv6 loopback: browsers may resolve
   * localhost to either). A host this machine lacks (no IPv6) is skipped; port 0 picks one
   * port on the first host and reuses it on the others.
   */
  const bindAll = async (wss: WebSocketServer, port: number, what: string, tls?: { cert: string; key: string }) => {
    let bound = port;
    let any = false;
    for (const host of config.hosts) {
      const server = makeServer(wss, tls);
      try {
        await listen(server, bound, host);
        bound = (server.address() as AddressInfo).port;
        any = true;
        log(`${what} listening on ${tls ? 'wss' : 'ws'}://${host.includes(':') ? `[${host}]` : host}:${bound}`);
      } catch (e) {
        servers.splice(servers.indexOf(server), 1);
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT') continue;
        throw Object.assign(e as Error, { port: bound });
      }
    }
    if (!any) throw new Error(`${what}: none of PRINT_AGENT_HOSTS (${config.hosts.join(', ')}) exists here`);
    return bound;
  };

  const closeAll = async () => {
    for (const wss of sockets) for (const c of wss.clients) c.terminate();
    await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  };

  try {
    let qzPort: number;
    try {
      qzPort = await bindAll(qz, config.port, 'QZ protocol');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        throw new Error(
          `Port ${config.port} is in use (is QZ Tray running? Quit it, or set PRINT_AGENT_PORT to another of QZ's ports: 8283, 8384, 8485)`,
          { cause: e },
        );
      }
      throw e;
    }
    const qzSecure = config.tls ? await bindAll(qz, config.securePort, 'QZ protocol (TLS)', config.tls) : null;
    let cainiaoPort: number | null = null;
    if (config.cainiaoPort !== null) {
      try {
        cainiaoPort = await bindAll(cainiao, config.cainiaoPort, 'Cainiao protocol');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
        // The operator already runs the Cainiao print component there: it keeps the port.
        log(`Port ${config.cainiaoPort} is in use (the Cainiao print component?): the Cainiao adapter is off`);
      }
    }
    return { ports: { qz: qzPort, qzSecure, cainiao: cainiaoPort }, close: closeAll };
  } catch (e) {
    await closeAll();
    throw e;
  }
}
