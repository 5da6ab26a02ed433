import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

/**
 * Sending one webhook request, safely (issue 39): the target must not be the server's own network.
 * A host not in WEBHOOK_ALLOWED_HOSTS is refused when any address it resolves to is loopback,
 * private, link-local (cloud metadata 169.254.169.254 included), shared, unspecified or multicast.
 * The check is in the socket's own DNS lookup, so the address connected to is the one checked
 * (a name that resolves to a public address once and to 127.0.0.1 the next time gains nothing).
 * Redirects are not followed (node:http never does): a 3xx is the endpoint's answer, a failure.
 */

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  // AWS's IPv6 metadata address.
  ['fd00:ec2::', 32],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    // An IPv4-mapped address (::ffff:127.0.0.1) is its IPv4 address.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    return mapped ? blocked.check(mapped[1]!, 'ipv4') : blocked.check(address, 'ipv6');
  }
  return true;
}

export class TargetRefused extends Error {
  readonly address: string;
  constructor(address: string) {
    super(`target address ${address} is not allowed`);
    this.address = address;
  }
}

export interface SendResult {
  statusCode: number | null;
  latencyMs: number;
  /** The first bytes of the answer (decoded as UTF-8, at most EXCERPT_BYTES). */
  excerpt: string;
  /** No answer: why (`targetRefused`, `timeout`, or the connection's error). */
  error: string | null;
}

export const EXCERPT_BYTES = 1024;
export const TIMEOUT_MS = 10_000;

export function sendWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  opts: { allowedHosts: readonly string[]; timeoutMs?: number },
): Promise<SendResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: Omit<SendResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...r, latencyMs: took() });
    };
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return done({ statusCode: null, excerpt: '', error: 'invalidUrl' });
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      return done({ statusCode: null, excerpt: '', error: 'invalidUrl' });
    }
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const allowed = opts.allowedHosts.includes(host);
    const lookup = (
      hostname: string,
      options: object,
      cb: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
    ) => {
      dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) return cb(err, '');
        const list = addresses as LookupAddress[];
        const bad = allowed ? undefined : list.find((a) => isForbiddenAddress(a.address));
        if (bad) return cb(new TargetRefused(bad.address), '');
        if ((options as { all?: boolean }).all) return cb(null, list);
        cb(null, list[0]!.address, list[0]!.family);
      });
    };
    // A literal address is not looked up: check it here.
    if (isIP(host) && !allowed && isForbiddenAddress(host)) {
      return done({ statusCode: null, excerpt: '', error: 'targetRefused' });
    }
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        lookup: lookup as never,
        signal: AbortSignal.timeout(opts.timeoutMs ?? TIMEOUT_MS),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () =>
          done({
            statusCode: res.statusCode ?? null,
            excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
            error: null,
          });
        res.on('data', (c: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(c);
          size += c.length;
          // Enough read: the rest of a large answer is not waited for.
          if (size >= EXCERPT_BYTES) {
            finish();
            res.destroy();
          }
        });
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    request.on('error', (err) => {
      const e = err as NodeJS.ErrnoException;
      const error =
        err instanceof TargetRefused
          ? 'targetRefused'
          : e.name === 'TimeoutError' || e.name === 'AbortError'
            ? 'timeout'
            : (e.code ?? 'connectionFailed');
      done({ statusCode: null, excerpt: '', error });
    });
    request.end(body);
  });
}
