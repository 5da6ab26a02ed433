import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * The built console at /home/ (a single-page app: unknown paths get index.html).
 * The build writes `.br` and `.gz` beside each text asset; `preCompressed` sends the best one
 * the client accepts (with `Vary: Accept-Encoding`), so nothing is compressed per request.
 * Files under `assets/` carry a content hash in their name, so a name never changes meaning:
 * cached for a year without revalidation. Everything else (index.html, logo) revalidates, so a
 * deploy is seen on the next load.
 */
export function registerConsole(app: FastifyInstance, dist: string) {
  app.get('/', (_req, reply) => reply.redirect('/home/'));
  const index = path.join(dist, 'index.html');
  if (!fs.existsSync(index)) {
    app.get('/home/*', (_req, reply) =>
      reply.type('text/plain').status(503).send('The console is not built: run `npm run build` first.'),
    );
    return;
  }
  const hashed = path.join(dist, 'assets') + path.sep;
  app.register(fastifyStatic, {
    root: dist,
    prefix: '/home/',
    wildcard: false,
    index: ['index.html'],
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, file) => {
      reply.header('cache-control', file.startsWith(hashed) ? IMMUTABLE : 'no-cache');
    },
  });
  app.get('/home/*', (_req, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html', dist));
  app.get('/home', (_req, reply) => reply.redirect('/home/'));
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
