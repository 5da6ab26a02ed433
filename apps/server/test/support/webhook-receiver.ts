import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll } from 'vitest';

/** One request the receiver got: its Standard Webhooks headers, its body, and which secrets verified it. */
export interface Received {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  event: { id: string; type: string; sequence: number; data: any };
  /** Secrets (by index in `secrets`) whose verification passed. */
  verifiedBy: number[];
  /** A held request: whether its sender gave up on it (closed the connection) yet. */
  closed: boolean;
}

/**
 * A real HTTP receiver on a free port (issue 39's webhook tests): it verifies every request's
 * signature with `standardwebhooks` against each secret it was given, records it, and answers
 * what `answer` says (200 unless told; `hold` keeps a request unanswered until `release`).
 */
export async function webhookReceiver() {
  const received: Received[] = [];
  const secrets: string[] = [];
  let answer: (r: Received) => number | 'hold' = () => 200;
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      const verifiedBy: number[] = [];
      secrets.forEach((s, i) => {
        try {
          new Webhook(s).verify(body, headers);
          verifiedBy.push(i);
        } catch {
          /* not this secret's */
        }
      });
      const r: Received = {
        path: req.url ?? '',
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        signature: headers['webhook-signature'],
        body,
        event: JSON.parse(body),
        verifiedBy,
        closed: false,
      };
      received.push(r);
      const a = answer(r);
      if (a === 'hold') {
        held.push(res);
        res.on('close', () => (r.closed = true));
      } else res.writeHead(a, { 'content-type': 'text/plain' }).end(a === 200 ? 'ok' : `status ${a}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  afterAll(async () => {
    for (const r of held) r.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    secrets,
    answer(f: (r: Received) => number | 'hold') {
      answer = f;
    },
    release() {
      for (const r of held.splice(0)) r.writeHead(200).end('ok');
    },
  };
}
