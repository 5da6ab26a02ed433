import type { FastifyInstance } from 'fastify';
import { checkReadiness, type ReadinessCheck } from '../lib/readiness.ts';

/**
 * Liveness: the process answers (no database), for restarts. Readiness: it can serve now (the
 * checks pass: the database and the file store answer, a worker runs jobs, it is not stopping),
 * for the load balancer; 503 with a reason key otherwise.
 */
export function healthRoutes(app: FastifyInstance, version: string, checks: ReadinessCheck[]) {
  app.get('/api/health', async () => ({ code: 200, message: 'ok', data: { status: 'up', version } }));
  app.get('/api/ready', async (req, reply) => {
    const r = await checkReadiness(checks, 3_000);
    if (r.ready) return { code: 200, message: 'ok', data: { status: 'ready', version } };
    req.log.warn({ err: r.error, reason: r.reason }, 'not ready');
    return reply.status(503).send({ code: 503, message: 'not ready', data: { status: 'unready', reason: r.reason } });
  });
}
