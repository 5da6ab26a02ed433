import { beforeAll, describe, expect, it } from 'vitest';
import { sealRequest, openResponse } from '../aes-client.ts';
import { createHarness, type Harness, type HttpClient, listening } from '../harness.ts';

/**
 * Issue 28 #3 for export nominations and customers: two saves of one record from one version go
 * truly in parallel over HTTP, on SQLite and on PostgreSQL; exactly one lands, the other is a
 * 409 with the record as it is now; a save from an old version is refused; no version, last wins.
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

/** A call over a real connection, sealed when `aes`; a success opened, an error's data as it came. */
async function send(path: string, body: unknown, token: string, aes: boolean) {
  const r = aes
    ? await http.post(path, sealRequest(token, body), token, { aes: '1', 'accept-language': 'en' })
    : await http.post(path, body, token, { 'accept-language': 'en' });
  const data = aes && r.status === 200 ? openResponse(token, r.body) : r.body?.data;
  return { status: r.status, message: r.body?.message as string, data: data as any };
}

const nomination = {
  nameJa: 'テスト輸出株式会社',
  nameEn: 'Test Export K.K.',
  corporateNumber: '1180301018771',
  addressEn: '1 Toyota-cho, Toyota, Aichi',
  tel: '0565-28-2121',
  idMark: 'TST',
  receiveEmail: 'docs@test.example',
};

/** Each record type: how to make one, save it with one changed field, and read the field back. */
const kinds = [
  {
    name: 'export nomination',
    make: async () => (await send('export/create', nomination, demo, true)).data,
    save: (row: any, value: string, version?: number) =>
      send('export/update', { ...nomination, id: row.id, addressEn: value, version }, demo, true),
    field: 'addressEn',
    stored: async (id: number) =>
      (await h.db.selectFrom('export_nominations').select('address_en').where('id', '=', id).executeTakeFirstOrThrow())
        .address_en,
  },
  {
    name: 'customer',
    make: async () => {
      const code = `VER${Math.floor(Math.random() * 1e8)}`;
      return (await send('admin/customer/create', { code, name: 'Versions Ltd' }, operator, false)).data;
    },
    save: (row: any, value: string, version?: number) =>
      send('admin/customer/update', { id: row.id, name: row.name, contactName: value, version }, operator, false),
    field: 'contactName',
    stored: async (id: number) =>
      (await h.db.selectFrom('customers').select('contact_name').where('id', '=', id).executeTakeFirstOrThrow())
        .contact_name,
  },
];

describe.each(kinds)('$name versions', (k) => {
  it('two saves from one version sent together: exactly one lands, the other is a 409 with the winner', async () => {
    for (let i = 0; i < 6; i++) {
      const row = await k.make();
      expect(row.version).toEqual(expect.any(Number));
      const answers = await Promise.all([
        k.save(row, `first ${i}`, row.version),
        k.save(row, `second ${i}`, row.version),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const winner = answers[0]!.status === 200 ? `first ${i}` : `second ${i}`;
      const won = answers.find((a) => a.status === 200)!;
      const lost = answers.find((a) => a.status === 409)!;
      expect(await k.stored(row.id)).toBe(winner);
      expect(lost.message).toMatch(/changed this record/);
      expect(lost.data.current).toMatchObject({ id: row.id, [k.field]: winner });
      expect(lost.data.version).toBe(won.data.version);
    }
  });

  it('a save from an old version after another is a 409; without a version the last save wins', async () => {
    const row = await k.make();
    const first = await k.save(row, 'one', row.version);
    expect(first.status).toBe(200);
    expect(first.data.version).toBeGreaterThan(row.version);
    const stale = await k.save(row, 'two', row.version);
    expect(stale.status).toBe(409);
    expect(stale.data).toMatchObject({ version: first.data.version, current: { [k.field]: 'one' } });
    expect(await k.stored(row.id)).toBe('one');
    expect((await k.save(row, 'three', first.data.version)).status).toBe(200);
    expect((await k.save(row, 'four')).status).toBe(200);
    expect(await k.stored(row.id)).toBe('four');
  });
});
