import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, secondInstance } from './harness.ts';

/**
 * Issue 27, breakage 3: the console polls a download's progress through the load balancer, so
 * another instance answers the poll. Progress lives in the database: B reads what A writes,
 * from the first poll to "done", and still only for the user who started it.
 */
let h: Harness;
let b: FastifyInstance;
let demo: string;
let demo2: string;

beforeAll(async () => {
  h = await createHarness();
  b = (await secondInstance(h)).app;
  [demo, demo2] = await Promise.all([h.login('demo'), h.login('demo2')]);
});

const progressOnB = async (id: string, token = demo) => {
  const r = await b.inject({
    method: 'POST',
    url: '/api/export/progress',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    payload: JSON.stringify({ id }),
  });
  expect(r.statusCode).toBe(200);
  return r.json().data as { phase: string; rows: number; total: number | null };
};

describe('download progress across instances', () => {
  it('a download built on A is followed on B to done; another user reads nothing', async () => {
    const id = 'two-instances-0001';
    expect(await progressOnB(id)).toEqual({ phase: 'unknown', rows: 0, total: null });
    const res = await h.post('order/downloadOrderExcel', { progressId: id }, demo);
    expect(res.status).toBe(200);
    const done = await progressOnB(id);
    expect(done.phase).toBe('done');
    expect(done.total).toBeGreaterThan(0);
    expect(done.rows).toBe(done.total);
    expect(await progressOnB(id, demo2)).toEqual({ phase: 'unknown', rows: 0, total: null });
  });
  it('a download refused before its file is failed on B too', async () => {
    const id = 'two-instances-0002';
    const res = await h.post('order/batch/download/excel', { id: 999_999, progressId: id }, demo);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect((await progressOnB(id)).phase).toBe('failed');
  });
});
