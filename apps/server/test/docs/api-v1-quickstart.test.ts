import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { v1 } from '../api-v1/helpers.ts';

/**
 * docs/api-v1.md's quickstart, step by step, with its own bodies read from the page: making a key
 * by the console's call, creating the order it shows with an Idempotency-Key (and its replay), getting it
 * by id and number, listing it with `updatedSince`, then with the same key its label and trail, and
 * registering the page's local webhook endpoint and sending it a test event. A body the page shows that
 * the server refuses, or a step the key of step 1 cannot open, fails here.
 */
const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../../docs/api-v1.md'), 'utf8');
/**
 * The JSON after `-d '` in the n-th curl of the page (step 1's login and key). Only the steps this test
 * replays are parsed (later steps build their bodies from step 2's with jq).
 */
const bodyOf = (n: number) => JSON.parse([...doc.matchAll(/-d '(\{[\s\S]*?\})'/g)][n]![1]!);
/** The JSON of the first `-d '…'` after `marker` on the page. */
const bodyAfter = (marker: string) => {
  const at = doc.indexOf(marker);
  expect(at, marker).toBeGreaterThan(-1);
  return JSON.parse(/-d '(\{[\s\S]*?\})'/.exec(doc.slice(at))![1]!);
};

let h: Harness;
beforeAll(async () => {
  // As the quickstart's local trial starts its server: a plain-http receiver on this machine.
  h = await createHarness({ env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_HOSTS: 'localhost' } });
});

describe('docs/api-v1.md quickstart', () => {
  it('works as written', async () => {
    const login = await h.post('login', bodyOf(0));
    expect(login.status).toBe(200);
    const made = await h.post('apiKey/create', bodyOf(1), login.body.data.access_token);
    expect(made.status).toBe(200);
    const key = made.body.data.key as string;
    // Step 2 writes the order to a file (`cat > order.json <<'JSON'`) that its curl sends.
    const order = JSON.parse(/<<'JSON'\n([\s\S]*?)\nJSON\n/.exec(doc)![1]!);
    const created = await v1(h.app, 'POST', 'orders', key, {
      body: order,
      headers: { 'idempotency-key': 'quickstart-1' },
    });
    expect(created.status, created.raw).toBe(200);
    const id = created.body.data.id as number;
    // The retry the page shows: the same key and body replay the first answer, marked.
    const again = await v1(h.app, 'POST', 'orders', key, {
      body: order,
      headers: { 'idempotency-key': 'quickstart-1' },
    });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const reused = await v1(h.app, 'POST', 'orders', key, {
      body: { ...order, orderNo: `${order.orderNo}-B` },
      headers: { 'idempotency-key': 'quickstart-1' },
    });
    expect(reused.status).toBe(422);
    expect(Object.keys(reused.body.data)).toEqual(['idempotencyKey']);
    expect((await v1(h.app, 'GET', `orders/${id}`, key)).body.data.orderNo).toBe(order.orderNo);
    const byNo = await v1(h.app, 'GET', `orders?orderNo=${order.orderNo}`, key);
    expect(byNo.body.data.list.map((o: { id: number }) => o.id)).toEqual([id]);
    const since = await v1(
      h.app,
      'GET',
      `orders?updatedSince=${encodeURIComponent('2000-01-01T00:00:00Z')}&limit=2`,
      key,
    );
    expect(since.status).toBe(200);
    expect(since.body.data.nextCursor).not.toBeNull();
    const next = await v1(
      h.app,
      'GET',
      `orders?updatedSince=2000-01-01T00:00:00Z&limit=2&cursor=${since.body.data.nextCursor}`,
      key,
    );
    expect(next.status).toBe(200);
    // Step 6 and 7 with the key of step 1: it must hold their scopes.
    const label = await v1(h.app, 'GET', `orders/${id}/label`, key);
    expect(label.status, label.raw.slice(0, 200)).toBe(200);
    expect(label.headers['content-type']).toContain('application/pdf');
    const trail = await v1(h.app, 'GET', `orders/${id}/tracking`, key);
    expect(trail.status).toBe(200);
    expect(trail.body.data.status).toBe('printed');
    const endpoint = await v1(h.app, 'POST', 'webhook-endpoints', key, {
      body: bodyAfter('$BASE/api/v1/webhook-endpoints'),
    });
    expect(endpoint.status, endpoint.raw).toBe(200);
    expect(endpoint.body.data.secret).toMatch(/^whsec_/);
    const test = await v1(h.app, 'POST', `webhook-endpoints/${endpoint.body.data.id}/test`, key);
    expect(test.status).toBe(200);
    expect(Object.keys(test.body.data).sort()).toEqual(['deliveryId', 'eventId']);
  });
});
