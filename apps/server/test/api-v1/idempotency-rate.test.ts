import { beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/lib/crypto.ts';
import { createIdempotency } from '../../src/modules/api-keys/idempotency.ts';
import { createHarness, type Harness, listening } from '../harness.ts';
import { jpOrderBody } from '../support/orders.ts';
import { makeKey, v1 } from './helpers.ts';

/**
 * Issue 39: `Idempotency-Key` on v1 POSTs (stored in the database, so it holds across instances)
 * and the per-key rate limit (counted in the database). The race is real: 20 POSTs over HTTP at
 * once to a listening server.
 */
let h: Harness;
let base: string;
let demo: string;
let key: string;

beforeAll(async () => {
  h = await createHarness({ env: { API_RATE_LIMIT_PER_MINUTE: '1000' } });
  demo = await h.login('demo');
  key = (await makeKey(h, demo)).key;
  base = (await listening(h.app)).base;
});

const post = async (k: string, idem: string | undefined, body: unknown) => {
  const r = await fetch(`${base}/v1/orders`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${k}`,
      ...(idem ? { 'idempotency-key': idem } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: r.status, text: await r.text(), replayed: r.headers.get('idempotent-replayed') };
};

const ordersNumbered = async (orderNo: string) =>
  (await h.db.selectFrom('orders').select('id').where('order_no', '=', orderNo).execute()).length;

describe('Idempotency-Key', () => {
  it('20 parallel POSTs with one key and one body make one order; every 200 is the same answer, the rest are in-progress 409s', async () => {
    const body = jpOrderBody('IDEM');
    const idem = `race-${body.orderNo}`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(key, idem, body)));
    expect(await ordersNumbered(body.orderNo)).toBe(1);
    const ok = answers.filter((a) => a.status === 200);
    const busy = answers.filter((a) => a.status === 409);
    expect(ok.length + busy.length, JSON.stringify(answers.map((a) => a.status))).toBe(20);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((a) => a.text)).size).toBe(1);
    for (const b of busy) expect(JSON.parse(b.text).key).toBe('requestInProgress');
    // Once the first has answered, every repeat is its answer, replayed.
    const again = await post(key, idem, body);
    expect([again.status, again.text, again.replayed]).toEqual([200, ok[0]!.text, 'true']);
    expect(await ordersNumbered(body.orderNo)).toBe(1);
  });

  it('refuses the same key with another body, with a stable key', async () => {
    const body = jpOrderBody('IDEMB');
    const idem = `other-${body.orderNo}`;
    expect((await post(key, idem, body)).status).toBe(200);
    const other = await post(key, idem, { ...body, remark: 'changed' });
    expect(other.status).toBe(422);
    expect(JSON.parse(other.text)).toMatchObject({
      key: 'validationFailed',
      data: { idempotencyKey: [expect.any(String)] },
    });
    expect(other.text).toContain('Idempotency-Key');
  });

  it('keeps keys apart per API key, frees the key of a failed request, and refuses a malformed key', async () => {
    const body = jpOrderBody('IDEMC');
    const idem = `shared-${body.orderNo}`;
    // Refused (no sender phone is fine, no items is not): nothing stored, so a corrected retry runs.
    const refused = await post(key, idem, { ...body, items: [] });
    expect(refused.status).toBe(422);
    const fixed = await post(key, idem, body);
    expect([fixed.status, fixed.replayed]).toEqual([200, null]);
    // Another API key of the same customer with the same Idempotency-Key is another request.
    const second = (await makeKey(h, demo)).key;
    const other = await post(second, idem, body);
    expect(other.status).toBe(422); // the order number exists now: it ran, it was not replayed
    expect(JSON.parse(other.text).data).toHaveProperty('orderNo');
    const bad = await post(key, 'has space', body);
    expect([bad.status, JSON.parse(bad.text).key]).toEqual([400, 'idempotencyKeyInvalid']);
  });

  it('answers 409 while the first runs, and runs anew once the first is taken for dead (2 min) or the key expired (24 h)', async () => {
    const keyId = (
      await h.db.selectFrom('api_keys').select('id').where('secret_hash', '=', sha256(key)).executeTakeFirstOrThrow()
    ).id;
    const body = jpOrderBody('IDEME');
    const hash = createIdempotency({ db: h.db, clock: () => h.clock.now }).requestHash('POST', '/api/v1/orders', body);
    const running = (idem: string, ageMs: number, requestHash = hash) =>
      h.db
        .insertInto('idempotency_keys')
        .values({
          api_key_id: keyId,
          idem_key: idem,
          request_hash: requestHash,
          started_at: new Date(h.clock.now.getTime() - ageMs).toISOString(),
        })
        .execute();
    // A first request still running (its row, no answer yet): a repeat hears so.
    await running('busy-1', 5_000);
    const busy = await post(key, 'busy-1', body);
    expect([busy.status, JSON.parse(busy.text).key]).toEqual([409, 'requestInProgress']);
    expect(await ordersNumbered(body.orderNo)).toBe(0);
    // Its instance died (a kill -9): after two minutes a repeat runs it.
    await running('dead-1', 121_000);
    expect((await post(key, 'dead-1', body)).status).toBe(200);
    expect(await ordersNumbered(body.orderNo)).toBe(1);
    // A key past its 24 h is free again, whatever it was used for.
    const other = jpOrderBody('IDEMF');
    await running('old-1', 24 * 3_600_000 + 1, 'another request');
    expect((await post(key, 'old-1', other)).status).toBe(200);
  });

  it('replays from the database: another instance gives the stored answer', async () => {
    const body = jpOrderBody('IDEMD');
    const idem = `inst-${body.orderNo}`;
    const first = await post(key, idem, body);
    const other = await h.restarted();
    const r = await v1(other, 'POST', 'orders', key, { body, headers: { 'idempotency-key': idem } });
    expect([r.status, r.raw, r.headers['idempotent-replayed']]).toEqual([200, first.text, 'true']);
  });
});

describe('rate limit per key', () => {
  let limited: Harness;
  beforeAll(async () => {
    limited = await createHarness({ env: { API_RATE_LIMIT_PER_MINUTE: '5' } });
  });

  it('answers 429 with Retry-After and RateLimit-* past the budget, shared by every instance, and per key', async () => {
    // A window of its own: a minute's start, plus 10 s.
    limited.clock.now = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 10_000);
    const token = await limited.login('demo');
    const k = (await makeKey(limited, token, { scopes: ['orders:read'] })).key;
    const other = await limited.restarted();
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await v1(i % 2 ? other : limited.app, 'GET', 'orders?limit=1', k));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(answers.map((a) => a.headers['ratelimit-remaining'])).toEqual(['4', '3', '2', '1', '0', '0']);
    const last = answers[5]!;
    expect(last.body.key).toBe('tooManyRequests');
    expect([last.headers['ratelimit-limit'], last.headers['retry-after'], last.headers['ratelimit-reset']]).toEqual([
      '5',
      '50',
      '50',
    ]);
    // Another key has its own budget; the next minute starts a new one.
    const k2 = (await makeKey(limited, token, { scopes: ['orders:read'] })).key;
    expect((await v1(limited.app, 'GET', 'orders?limit=1', k2)).status).toBe(200);
    limited.clock.now = new Date(limited.clock.now.getTime() + 60_000);
    expect((await v1(limited.app, 'GET', 'orders?limit=1', k)).status).toBe(200);
  });
});
