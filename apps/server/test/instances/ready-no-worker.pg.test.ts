import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, secondInstance, type Harness } from '../harness.ts';
import { waitFor } from '../support/jobs.ts';

/**
 * Issue 38 row 9: a `web` instance runs no job, so while no worker instance has been heard from
 * within a lease its readiness is 503 `noWorker` (every import and download it took would wait);
 * once a worker runs, 200. Several instances are PostgreSQL's (the embedded SQLite is one process).
 */
const ENV = { SERVER_ROLE: 'web', JOB_LEASE_SECONDS: '10', JOB_POLL_SECONDS: '0.5' };

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ seed: false, env: ENV });
});

const ready = async () => {
  const r = await h.app.inject({ method: 'GET', url: '/api/ready' });
  return { status: r.statusCode, body: r.json() };
};

describe('a web instance’s readiness', () => {
  it('503 noWorker with no worker instance, 200 once one runs', async () => {
    expect(await ready()).toEqual({
      status: 503,
      body: { code: 503, message: 'not ready', data: { status: 'unready', reason: 'noWorker' } },
    });
    await secondInstance(h, { env: { ...ENV, SERVER_ROLE: 'worker' } });
    // The worker registered as it opened its queue: the next check sees it.
    await waitFor('ready', async () => (await ready()).status === 200);
    expect((await ready()).body.data.status).toBe('ready');
  });
});
