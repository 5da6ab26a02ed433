import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as parsePool from '../../src/modules/batches/parse-pool.ts';
import { openResponse, sealRequest } from '../aes-client.ts';
import { settle, upload } from '../batches/helpers.ts';
import { createHarness, type Harness, multipart } from '../harness.ts';
import { sheetWorkbook } from '../support/zip.ts';

// Counts the pools the app makes; each one is the real pool. (A hoisted counter: the harness
// resets the module registry, so the factory may run again.)
const pools = vi.hoisted(() => ({ made: 0 }));
vi.mock('../../src/modules/batches/parse-pool.ts', async (original) => {
  const real = await original<typeof parsePool>();
  return {
    ...real,
    createParsePool: (...args: Parameters<typeof real.createParsePool>) => {
      pools.made++;
      return real.createParsePool(...args);
    },
  };
});

/**
 * Issue 27: a worker instance ran two parse pools (order import and order review), each up to
 * PARSE_WORKERS threads: twice the parse threads the setting promises. One pool per instance now.
 */
describe('one parse pool per instance', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => undefined);

  it('an order import and an order review parse in the same pool', async () => {
    const demo = await h.login('demo');
    // A sheet with no header row: both parses run in a worker and fail fast.
    const sheet = sheetWorkbook('<row r="1"><c r="A1"><v>1</v></c></row>');
    const batch = await upload(h, 'order/batch/createImport', demo, { channel: 'JP' }, { name: 'o.xlsx', data: sheet });
    expect((await settle(h, demo, batch.body.data.id)).status).toBe('failed');

    const m = multipart(sealRequest(demo, {}), { name: 'review.xlsx', data: sheet });
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/orderReview/create',
      headers: { 'content-type': m.contentType, authorization: `Bearer ${demo}`, aes: '1' },
      payload: m.payload,
    });
    expect(res.statusCode).toBe(200);
    const { id } = openResponse(demo, res.json()) as { id: number };
    let state: string | undefined;
    for (const end = Date.now() + 60_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
      const row = await h.db.selectFrom('order_reviews').select('parse_state').where('id', '=', id).executeTakeFirst();
      state = row?.parse_state;
      if (state === 'done' || state === 'failed') break;
    }
    expect(state).toBe('failed');
    expect(pools.made).toBe(1);
  }, 90_000);
});
