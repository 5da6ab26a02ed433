import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

it('an unexpected failure is a 500 with an errorId and no SQL, stack or path', async () => {
  const token = await h.login('demo');
  await sql`drop table notice_reads`.execute(h.db);
  const r = await h.post('message', {}, token);
  expect(r.status).toBe(500);
  expect(r.body.data.errorId).toMatch(/^[0-9a-f-]{36}$/);
  const text = JSON.stringify(r.body);
  expect(text).not.toMatch(/notice_reads|select|at .*\.ts|\/work\//i);
});
