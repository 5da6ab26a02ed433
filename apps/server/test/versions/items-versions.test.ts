import { beforeAll, describe, expect, it } from 'vitest';
import { sealRequest, openResponse } from '../aes-client.ts';
import { createHarness, type Harness, type HttpClient, listening } from '../harness.ts';
import { aes, itemBody } from '../items/helpers.ts';

/**
 * Issue 28 #3 for catalogue items: two saves of one item from one version go truly in parallel
 * over HTTP (sealed, as the console sends them), on SQLite and on PostgreSQL.
 */
let h: Harness;
let http: HttpClient;
let demo: string;
let operator: string;

beforeAll(async () => {
  h = await createHarness();
  http = await listening(h.app);
  [demo, operator] = await Promise.all([h.login('demo'), h.login('operator')]);
});

/** A sealed call over a real connection; a success opened, an error's data as it came. */
async function sealed(path: string, body: unknown, token = demo) {
  const r = await http.post(path, sealRequest(token, body), token, { aes: '1', 'accept-language': 'en' });
  const data = r.status === 200 ? openResponse(token, r.body) : r.body?.data;
  return { status: r.status, message: r.body?.message as string, data: data as any };
}
const newItem = async () => {
  const body = itemBody();
  const c = await aes(h, 'item/create', body, demo);
  expect(c.status).toBe(200);
  return { body, row: c.data };
};
const storedSpecs = async (id: number) =>
  (await h.db.selectFrom('items').select('specs').where('id', '=', id).executeTakeFirstOrThrow()).specs;

describe('item versions', () => {
  it('two saves from one version sent together: exactly one lands, the other is a 409 with the winner', async () => {
    for (let i = 0; i < 6; i++) {
      const { body, row } = await newItem();
      expect(row.version).toEqual(expect.any(Number));
      const save = (specs: string) => sealed('item/update', { ...body, id: row.id, specs, version: row.version });
      const answers = await Promise.all([save(`甲${i}`), save(`乙${i}`)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const winner = answers[0]!.status === 200 ? `甲${i}` : `乙${i}`;
      const lost = answers.find((a) => a.status === 409)!;
      expect(await storedSpecs(row.id)).toBe(winner);
      expect(lost.message).toMatch(/changed this record/);
      expect(lost.data.current).toMatchObject({ id: row.id, specs: winner });
      expect(lost.data.version).toBe(answers.find((a) => a.status === 200)!.data.version);
    }
  });

  it('a save from the version before a review is a 409 with the item now; without a version it lands', async () => {
    const { body, row } = await newItem();
    expect((await aes(h, 'item/fail', { id: row.id, reason: 'no ingredients' }, operator)).status).toBe(200);
    const stale = await sealed('item/update', { ...body, id: row.id, specs: '200g', version: row.version });
    expect(stale.status).toBe(409);
    expect(stale.data.current).toMatchObject({ status: 'failed', specs: body.specs });
    expect(await storedSpecs(row.id)).toBe(body.specs);
    // The spec's call carries no version: the last save wins for it.
    expect((await sealed('item/update', { ...body, id: row.id, specs: '200g' })).status).toBe(200);
    expect(await storedSpecs(row.id)).toBe('200g');
  });
});
