import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, stopServer, type ServerProcess, waitReady } from '../../cluster/cluster.ts';
import { waitFor } from '../support/jobs.ts';

/**
 * A rolling restart behind a balancer (issue 38): on SIGTERM the instance first answers readiness
 * 503 `shuttingDown` while it still serves calls, for SHUTDOWN_DRAIN_SECONDS, so the balancer's
 * health check takes it out before it stops accepting. Without the drain a call the balancer sent
 * in the last moment met Fastify's 503 for a closing server (the cluster suite saw one). A real
 * server process, since the drain is server.ts's; the database makes no difference (SQLite run only).
 */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

let server: ServerProcess | undefined;
afterAll(async () => {
  if (server) await stopServer(server, 'SIGKILL');
});

describe('SIGTERM with a drain', () => {
  it('readiness turns 503 shuttingDown at once, while calls are still served', async () => {
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drain-'));
    server = startServer(
      'drain',
      port,
      {
        DATABASE_URL: path.join(dir, 'drain.sqlite'),
        // Longer than the test: the verdict never depends on how soon the first probe comes.
        SHUTDOWN_DRAIN_SECONDS: '60',
        DEMO_SEED: 'false',
        JD_SECRET_KEY: 'c3'.repeat(32),
      },
      dir,
    );
    await waitReady(server);
    const base = `http://127.0.0.1:${port}`;

    server.child.kill('SIGTERM');
    let ready: { status: number; body: any } | undefined;
    await waitFor('readiness to turn 503', async () => {
      const r = await fetch(`${base}/api/ready`);
      ready = { status: r.status, body: await r.json() };
      return r.status !== 200;
    });
    expect(ready).toEqual({
      status: 503,
      body: { code: 503, message: 'not ready', data: { status: 'unready', reason: 'shuttingDown' } },
    });
    // Still serving during the drain: what the balancer sends before it has seen the 503 is answered.
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    expect(login.status).not.toBe(503);
    expect(server.child.exitCode).toBeNull();
  }, 60_000);
});
