import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Helmet's headers, worked out once. Our policy has no per-request part (no nonces), yet
 * @fastify/helmet rebuilds helmet's middleware from the options on every request — 25 µs a
 * call, a fifth of a bare route. Helmet stays the source of the values; we run its middleware
 * once against a recorder and replay the result.
 */
export function installSecurityHeaders(app: FastifyInstance) {
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
        // The print plugin (QZ Tray protocol) and the Cainiao component listen on localhost.
        connectSrc: [
          "'self'",
          'ws://localhost:8182',
          'wss://localhost:8181',
          'ws://localhost:13528',
          'ws://127.0.0.1:8182',
        ],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  })({ headers: {} } as IncomingMessage, recorder, (err?: unknown) => {
    if (err) throw err;
  });
  const headers = Object.freeze({ ...set });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    for (const name of removed) reply.raw.removeHeader(name);
    done();
  });
}
