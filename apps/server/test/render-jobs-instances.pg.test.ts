import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { RENDERER_ID } from '../src/modules/export-jobs/export-jobs.renders.ts';
import { createHarness, type Harness, secondInstance } from './harness.ts';
import { renderStates, type RenderSide, smallBesideHeavy } from './support/render-jobs.ts';

/**
 * Issue 27 on two instances of one PostgreSQL: `web` answers calls and enqueues, the harness's
 * instance (SERVER_ROLE=all) runs the jobs. A download asked of the web instance is rendered by
 * the other and comes back through the shared store; a small render of one customer answers
 * while another's heavy renders hold the worker. `*.pg.test.ts`: the PostgreSQL run only.
 */
const ENV = { JOB_POLL_SECONDS: '0.5' };

let h: Harness;
let web: FastifyInstance;
/** The web instance's own module graph (secondInstance gives it one): its render slot and tenant. */
let webSide: RenderSide & { rendererId: string };
let demo: string;

beforeAll(async () => {
  h = await createHarness({ env: ENV });
  web = (await secondInstance(h, { env: { ...ENV, SERVER_ROLE: 'web' } })).app;
  // Imported after secondInstance reset the module registry: the web instance's modules.
  webSide = {
    ...(await import('../src/lib/fair-turns.ts')),
    ...(await import('../src/lib/workbook-job.ts')),
    rendererId: (await import('../src/modules/export-jobs/export-jobs.renders.ts')).RENDERER_ID,
  };
  expect(webSide.rendererId).not.toBe(RENDERER_ID);
  demo = await h.login('demo');
});

const onWeb = async (call: string, body: unknown, token: string) => {
  const r = await web.inject({
    method: 'POST',
    url: `/api/${call}`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    payload: JSON.stringify(body),
  });
  return { status: r.statusCode, type: String(r.headers['content-type']), bytes: r.rawPayload };
};

describe('renders across instances', () => {
  it('an export asked of a web instance is rendered by the worker instance and downloads from the web one', async () => {
    // A render's row is removed once answered: who took each is noted as it is taken (issue 36
    // #16: the test never checked which instance rendered; one rendering in the asker passed).
    await sql`create table test_render_takers (render_id text, rendered_by text)`.execute(h.db);
    await sql`create function test_note_taker() returns trigger language plpgsql as $$
      begin
        if new.rendered_by is not null then insert into test_render_takers values (new.id::text, new.rendered_by); end if;
        return new;
      end $$`.execute(h.db);
    await sql`create trigger test_note_taker after insert or update of rendered_by on export_renders
      for each row execute function test_note_taker()`.execute(h.db);
    const res = await onWeb('order/downloadOrderExcel', { sort: 'createdAt', order: 'desc' }, demo);
    expect(res.status).toBe(200);
    expect(res.type).toContain('spreadsheetml');
    expect(res.bytes.subarray(0, 2).toString()).toBe('PK');
    // Progress written by the worker instance is read by either.
    const progressId = 'render-on-worker-01';
    expect((await onWeb('order/downloadOrderExcel', { progressId }, demo)).status).toBe(200);
    const seen = await h.post('export/progress', { id: progressId }, demo);
    expect((seen.body as { data: { phase: string } }).data.phase).toBe('done');
    expect((await renderStates(h.db)).all).toEqual([]);
    const { rows: takers } = await sql<{ render_id: string; rendered_by: string }>`
      select distinct render_id, rendered_by from test_render_takers`.execute(h.db);
    await sql`drop trigger test_note_taker on export_renders`.execute(h.db);
    // Both downloads were rendered through the queue, each by the worker instance's renderer.
    expect(new Set(takers.map((t) => t.render_id)).size).toBe(2);
    expect(new Set(takers.map((t) => t.rendered_by))).toEqual(new Set([RENDERER_ID]));
  });

  it("a small render of customer B answers while A's heavy renders occupy the worker; none runs on the web instance", async () => {
    const renderers = await smallBesideHeavy(webSide, h.db);
    expect(new Set(renderers)).toEqual(new Set([RENDERER_ID]));
    expect((await renderStates(h.db)).all).toEqual([]);
  });
});
