import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Helmet's headers, worked out once. Our policy has no per-request part (no nonces), yet
 * @fastify/helmet rebuilds helmet's middleware from the options on every request — 25 µs a
 * call, a fifth of a bare route. Helmet stays the source of the values; we run its middleware
 * once against a recorder and replay the result.
 *
 * Two variants (finding 13 of issue 10): HSTS and CSP's `upgrade-insecure-requests` only
 * when the request came over TLS (or through a trusted proxy that says `X-Forwarded-Proto:
 * https`). Sent over plain HTTP they made a browser that opened the console by any host name
 * but localhost fetch every asset over https and load none (ERR_SSL_PROTOCOL_ERROR). Each
 * variant also exists with `Cache-Control: no-store` for /api/: answers carry tokens and ID
 * numbers, and no cache on the way or on disk should keep them.
 */
export function installSecurityHeaders(app: FastifyInstance) {
  const plain = recordHelmet(false);
  const tls = recordHelmet(true);
  const noStore = { 'cache-control': 'no-store' };
  const variants = {
    plain: { page: freeze(plain.set), api: freeze({ ...plain.set, ...noStore }), removed: plain.removed },
    tls: { page: freeze(tls.set), api: freeze({ ...tls.set, ...noStore }), removed: tls.removed },
  };
  app.addHook('onRequest', (request, reply, done) => {
    // Fastify's protocol: the socket's TLS, or X-Forwarded-Proto when TRUST_PROXY trusts the sender.
    const v = request.protocol === 'https' ? variants.tls : variants.plain;
    reply.headers(request.url.startsWith('/api/') ? v.api : v.page);
    for (const name of v.removed) reply.raw.removeHeader(name);
    done();
  });
}

const freeze = (headers: Record<string, string>) => Object.freeze({ ...headers });

function recordHelmet(overTls: boolean) {
  const set: Record<string, string> = {};
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      set[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => removed.push(name.toLowerCase()),
  } as unknown as ServerResponse;
  helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // antd writes its CSS-in-JS into <style> elements.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // The print plugin (QZ Tray protocol) and the Cainiao component listen on loopback:
        // QZ's 8182/8181 and 13528 by default, but the port is a user's print setting (a
        // second agent, QZ on another of its ports, the e2e run's own agent), so any port of
        // the loopback names; never another host. http: for the agent's GET /status, which says
        // why a connection failed (a refused origin looks like a closed port to the page).
        connectSrc: [
          "'self'",
          'ws://localhost:*',
          'wss://localhost:*',
          'ws://127.0.0.1:*',
          'wss://127.0.0.1:*',
          'http://localhost:*',
          'http://127.0.0.1:*',
        ],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: overTls ? [] : null,
      },
    },
    strictTransportSecurity: overTls,
    crossOriginEmbedderPolicy: false,
  })({ headers: {} } as IncomingMessage, recorder, (err?: unknown) => {
    if (err) throw err;
  });
  return { set, removed };
}
