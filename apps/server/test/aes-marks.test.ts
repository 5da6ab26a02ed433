import { allCalls, type CallDef, sampleOf, specCallPaths } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { openResponse, sealRequest } from './aes-client.ts';
import { createHarness, type Harness } from './harness.ts';

/**
 * Issue 28 item 20: the server follows spec §7's AES marks. A client written from the spec sends
 * the Subscribe, Label address update and JD authorization calls plain (§7 marks none of them
 * AES); they were sealed, and such a client got 400 on each. The calls the spec marks AES still
 * refuse a plain body and answer a sealed one. The marks themselves are pinned against the spec's
 * text in packages/contract/src/aes-marks.test.ts.
 */

/**
 * The calls that were sealed although §7 does not mark them: its Subscribe, Label address update
 * and JD authorization calls (spec-calls.ts), and the four the product adds to Subscribe.
 */
const FORMERLY_SEALED = [
  ...specCallPaths.filter((path) => /^(subscribe|updateLableB|jdAuthorize)\//.test(path)),
  'subscribe/take/piece/update',
  'subscribe/shop/abbr',
  'subscribe/time/capacity',
  'subscribe/time/capacity/update',
];

/** Reads that answer 200 to the simplest valid body, so "accepted" means answered, not only "not refused". */
const READS_PLAIN = ['subscribe/time/slots', 'subscribe/take/piece/list', 'updateLableB/list', 'jdAuthorize/list'];
const READS_SEALED = ['me', 'items', 'storageOrders', 'orderReviews', 'export/list', 'item/brands'];

/** The keys of the AES step's 400s: a plain body where a sealed one is due, or a seal that does not open. */
const ENVELOPE_REFUSALS = ['aesRequired', 'aesInvalid'];

let h: Harness;
let operator: string;
let demo: string;
const def = (path: string) => allCalls.find((c) => c.path === path)!;
const body = (call: CallDef) => sampleOf(call.request) ?? {};

beforeAll(async () => {
  h = await createHarness();
  operator = await h.login('operator');
  demo = await h.login('demo');
});

describe('AES marks on the wire (spec §7)', () => {
  it('a plain request to each formerly sealed call is accepted', async () => {
    const refused: string[] = [];
    for (const path of FORMERLY_SEALED) {
      const call = def(path);
      const r =
        call.kind === 'multipart'
          ? await h.post(path, '--x--\r\n', demo, { 'content-type': 'multipart/form-data; boundary=x' })
          : await h.post(path, body(call), operator);
      if (ENVELOPE_REFUSALS.includes(r.body?.key) || r.status >= 500)
        refused.push(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
    }
    expect(refused).toEqual([]);
    for (const path of READS_PLAIN) {
      const r = await h.post(path, body(def(path)), demo);
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.headers.aes, path).toBeUndefined();
      expect(typeof r.body.data, path).toBe('object');
    }
  });

  it('a call §7 marks AES refuses a plain body and answers a sealed one, sealed', async () => {
    const sealedCalls = allCalls.filter((c) => c.aes && c.kind !== 'multipart');
    expect(sealedCalls.map((c) => c.path)).toEqual(expect.arrayContaining(READS_SEALED));
    // The reads first: the loop's sample bodies change data (a password reset ends sessions).
    for (const path of READS_SEALED) {
      const r = await h.post(path, sealRequest(demo, {}), demo, { aes: '1' });
      expect(r.status, path).toBe(200);
      expect(r.headers.aes, path).toBe('1');
      expect(openResponse(demo, r.body), path).toBeTypeOf('object');
    }
    for (const call of sealedCalls) {
      const plain = await h.post(call.path, body(call), operator);
      expect([plain.status, plain.body?.key], call.path).toEqual([400, 'aesRequired']);
      const sealed = await h.post(call.path, sealRequest(operator, body(call)), operator, { aes: '1' });
      expect(ENVELOPE_REFUSALS, `${call.path}: ${JSON.stringify(sealed.body)}`).not.toContain(sealed.body?.key);
      expect(sealed.status, call.path).toBeLessThan(500);
    }
  });
});
