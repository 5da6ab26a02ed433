import { allCalls } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { sealRequest } from './aes-client.ts';
import { createHarness, type Harness } from './harness.ts';

/**
 * Generated from the contract: every call is guarded and no hostile body can
 * make the server fail with a 5xx.
 */

/** Every call anyone may make without a token, written out: a new public call must be added here on purpose. */
const publicCalls = ['login', 'order/tracking', 'refresh'];
const publicPathsOf = (calls: readonly { path: string; auth: boolean }[]) =>
  calls
    .filter((c) => !c.auth)
    .map((c) => c.path)
    .sort();
let h: Harness;
let token: string;

beforeAll(async () => {
  h = await createHarness();
  token = await h.login('admin');
});

describe('every authenticated call answers 401 without a token', () => {
  const guarded = allCalls.filter((c) => c.auth);
  it('covers every call except the public ones (finding 19: an explicit list)', () => {
    expect(publicPathsOf(allCalls)).toEqual(publicCalls);
    // The comparison can fail: one call flipped to public (or made guarded) is caught.
    const flip = (path: string) => allCalls.map((c) => (c.path === path ? { ...c, auth: !c.auth } : c));
    expect(publicPathsOf(flip('order/orderList'))).not.toEqual(publicCalls);
    expect(publicPathsOf(flip('order/tracking'))).not.toEqual(publicCalls);
    expect(guarded.length).toBeGreaterThan(20);
  });
  it.each(guarded.map((c) => [c.path]))('%s', async (path) => {
    const r = await h.post(path, {});
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ code: 401 });
    const forged = await h.post(path, {}, 'not-a-real-token');
    expect(forged.status).toBe(401);
  });
});

const hostileBodies: [string, string][] = [
  ['bad JSON', '{"a":'],
  ['an array', '[1,2,3]'],
  ['a string', '"hello"'],
  ['null', 'null'],
  ['wrong types', JSON.stringify({ offset: 'x', limit: {}, id: 'DROP TABLE orders', name: 5, password: [], order: 7 })],
  ['huge strings', JSON.stringify({ name: 'x'.repeat(200_000), keyword: 'y'.repeat(200_000), id: 1e308 })],
  [
    'injection text',
    JSON.stringify({
      name: "' OR 1=1 --",
      keyword: "%' UNION SELECT * FROM users --",
      province: '110000; DROP TABLE users',
    }),
  ],
  ['prototype pollution', '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}'],
  ['deep nesting', '{"a":'.repeat(500) + '1' + '}'.repeat(500)],
];

describe('hostile bodies get a 4xx, never a 5xx', () => {
  for (const call of allCalls) {
    it(`${call.path}`, async () => {
      // A fresh session per call: a body that happens to be valid for logout or refresh ends it.
      const token = await h.login('admin');
      for (const [label, body] of hostileBodies) {
        const payload = call.aes
          ? JSON.stringify(sealRequest(token, JSON.parse(body.startsWith('{"a":') ? '{}' : body)))
          : body;
        const r = await h.post(call.path, payload, token, call.aes ? { aes: '1' } : {});
        // Some bodies are valid for calls with only optional fields: those answer 200.
        expect(r.status, `${label}: ${JSON.stringify(r.body).slice(0, 300)}`).toBeLessThan(500);
        expect(typeof r.body === 'object' ? r.body.code : r.status).toBe(r.status);
      }
    });
  }
});

describe('errors', () => {
  it('a missing field and a wrong type are 422 with the field and the reason', async () => {
    const r = await h.post('login', { name: 'demo' });
    expect(r.status).toBe(422);
    expect(r.body.data.password).toHaveLength(1);
    const w = await h.post('cn/address/cities', { province: 110000 }, token, { 'accept-language': 'en' });
    expect(w.status).toBe(422);
    expect(w.body.data.province).toEqual(['Enter text here.']);
  });
  it('answers in the language of Accept-Language', async () => {
    const zh = await h.post('login', { name: 'nobody', password: 'x' }, undefined, {
      'accept-language': 'zh-CN,zh;q=0.9',
    });
    const en = await h.post('login', { name: 'nobody2', password: 'x' }, undefined, { 'accept-language': 'en' });
    expect(zh.body.message).toBe('用户名或密码错误。');
    expect(en.body.message).toBe('Wrong user name or password.');
  });
  it("400 'no data' where a lookup finds nothing", async () => {
    const r = await h.post('cn/address/cities', { province: '990000' }, token);
    expect(r).toMatchObject({ status: 400, body: { code: 400, message: 'no data' } });
  });
  it('a body over the limit is 413 and a non-JSON content type is 415', async () => {
    const big = await h.post('login', JSON.stringify({ name: 'a', password: 'b'.repeat(2 * 1024 * 1024) }));
    expect(big.status).toBe(413);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(res.statusCode).toBe(415);
  });
  it('an unknown /api path is a 404 envelope', async () => {
    const r = await h.post('no/such/call', {}, token);
    expect(r.status).toBe(404);
    expect(r.body.code).toBe(404);
  });
});

describe('HTTP surface', () => {
  it('health needs no token', async () => {
    const r = await h.app.inject({ method: 'GET', url: '/api/health' });
    expect(r.json()).toMatchObject({ code: 200, data: { status: 'up' } });
  });
  it('publishes OpenAPI with every call, AES calls marked x-aes', async () => {
    const r = await h.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = r.json();
    expect(Object.keys(doc.paths)).toHaveLength(allCalls.length);
    expect(doc.paths['/api/me'].post['x-aes']).toBe(true);
    expect(doc.paths['/api/login'].post['x-aes']).toBe(false);
  });
  it('sends security headers and no CORS', async () => {
    const r = await h.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(String(r.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
  });
  it('redirects / to /home/', async () => {
    const r = await h.app.inject({ method: 'GET', url: '/' });
    expect(r.statusCode).toBe(302);
    expect(r.headers.location).toBe('/home/');
  });
});
