import { beforeAll, describe, expect, it } from 'vitest';
import { openResponse, sealRequest } from '../aes-client.ts';
import { createHarness, type Harness, type HttpClient, listening, secondInstance } from '../harness.ts';

/**
 * Issue 27, finding 9: two instances behind a load balancer draw document numbers for one
 * database. They came from a counter of each process (`lib/document-numbers.ts`), so two
 * instances in the same millisecond could draw the same number, and the unique index refused the
 * second storage order with a 500. Here both apps run under one frozen clock (every number in the
 * same millisecond) and store 600 storage orders each, truly in parallel over HTTP.
 */
let h: Harness;
let one: HttpClient;
let two: HttpClient;

beforeAll(async () => {
  h = await createHarness({ now: new Date('2026-11-27T03:00:00.123Z') });
  const second = await secondInstance(h);
  one = await listening(h.app);
  two = await listening(second.app);
});

const PER_APP = 600;
const AT_ONCE = 12;

/** `count` storage orders of one waybill each, `AT_ONCE` calls in flight, through `client`; their numbers. */
async function storeMany(
  client: HttpClient,
  token: string,
  count: number,
): Promise<{ numbers: string[]; failed: unknown[] }> {
  const numbers: string[] = [];
  const failed: unknown[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const r = await client.post(
        'storageOrder/create',
        sealRequest(token, { customerId: 1, origin: 'counter', waybillNos: [`NOSUCH${i}`] }),
        token,
        { aes: '1', 'accept-language': 'en' },
      );
      if (r.status !== 200) failed.push({ status: r.status, body: r.body });
      else numbers.push((openResponse(token, r.body) as any).storageOrder.storageNo);
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  return { numbers, failed };
}

describe('document numbers across instances', () => {
  it(`${PER_APP} storage orders on each of two apps at once get ${2 * PER_APP} distinct numbers`, async () => {
    const [t1, t2] = await Promise.all([one.login('operator'), two.login('operator')]);
    const [a, b] = await Promise.all([storeMany(one, t1, PER_APP), storeMany(two, t2, PER_APP)]);
    expect([...a.failed, ...b.failed].slice(0, 3)).toEqual([]);
    const all = [...a.numbers, ...b.numbers];
    expect(all).toHaveLength(2 * PER_APP);
    expect(new Set(all).size).toBe(2 * PER_APP);
    // Each answered number is a stored storage order's.
    const stored = new Set(
      (await h.db.selectFrom('storage_orders').select('storage_no').execute()).map((s) => s.storage_no),
    );
    expect(all.filter((n) => !stored.has(n))).toEqual([]);
    // 1,200 sealed calls: a budget, not a speed check (it passed in 30 s alone and ran out at load 20).
  }, 180_000);
});
