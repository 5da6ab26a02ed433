import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { contentDisposition } from '../src/http/content-disposition.ts';
import { createHarness, type Harness } from './harness.ts';

/**
 * Finding 13 of issue 10: HSTS and `upgrade-insecure-requests` only over TLS, `no-store` on
 * API answers, download file names per RFC 5987 without control or bidirectional characters.
 */
let h: Harness;
let proxied: Harness;
beforeAll(async () => {
  h = await createHarness();
  proxied = await createHarness({ seed: false, env: { TRUST_PROXY: '127.0.0.1' } });
});

const get = (app: Harness['app'], url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });
const overTls = (headers: Record<string, unknown>) => ({
  hsts: headers['strict-transport-security'],
  upgrade: String(headers['content-security-policy']).includes('upgrade-insecure-requests'),
});

describe('issue 14: the console may reach the print plugin on loopback, any port, and nowhere else', () => {
  it("connect-src names the loopback WebSocket origins with any port, and the agent's status over http", async () => {
    const csp = String((await get(h.app, '/home/')).headers['content-security-policy']);
    const connect = /connect-src ([^;]*)/.exec(csp)?.[1]?.split(' ');
    // Built from the two loopback names, not copied from the policy: a source added there fails here.
    const loopback = ['localhost', '127.0.0.1'];
    expect(connect).toEqual([
      "'self'",
      ...loopback.flatMap((host) => [`ws://${host}:*`, `wss://${host}:*`]),
      ...loopback.map((host) => `http://${host}:*`),
    ]);
  });
});

describe('finding 13: HSTS and upgrade-insecure-requests only over TLS', () => {
  it('plain HTTP gets neither, whatever X-Forwarded-Proto says when no proxy is trusted', async () => {
    for (const headers of [{}, { 'x-forwarded-proto': 'https' }] as Record<string, string>[]) {
      for (const url of ['/api/health', '/home/', '/']) {
        const r = await get(h.app, url, headers);
        expect(String(r.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
        expect(overTls(r.headers)).toEqual({ hsts: undefined, upgrade: false });
      }
    }
  });
  it('behind a trusted proxy, X-Forwarded-Proto decides', async () => {
    const tls = await get(proxied.app, '/api/health', { 'x-forwarded-proto': 'https' });
    expect(overTls(tls.headers)).toEqual({ hsts: expect.stringMatching(/^max-age=\d+/), upgrade: true });
    const plain = await get(proxied.app, '/api/health', { 'x-forwarded-proto': 'http' });
    expect(overTls(plain.headers)).toEqual({ hsts: undefined, upgrade: false });
  });
  it('a request over a real TLS socket gets both', async () => {
    const dir = path.join(import.meta.dirname, 'support');
    const cert = fs.readFileSync(path.join(dir, 'tls-localhost.crt'));
    const server = https.createServer({ cert, key: fs.readFileSync(path.join(dir, 'tls-localhost.key')) }, (req, res) =>
      h.app.routing(req, res),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    let headers: Record<string, unknown>;
    try {
      headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
        https
          .get(
            {
              host: '127.0.0.1',
              port: (server.address() as AddressInfo).port,
              path: '/api/health',
              ca: cert,
              servername: 'localhost',
              agent: false,
            },
            (res) => {
              res.resume();
              resolve(res.headers);
            },
          )
          .on('error', reject);
      });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(overTls(headers)).toEqual({ hsts: expect.stringMatching(/^max-age=\d+/), upgrade: true });
  });
});

describe('finding 13: API answers are not stored by caches', () => {
  it('JSON answers, errors included, carry Cache-Control: no-store', async () => {
    const token = await h.login('demo');
    const answers = [
      await h.post('login', { name: 'demo', password: 'Demo@2026' }),
      await h.post('me', {}, token),
      await h.post('order/orderList', { offset: 0, limit: 20, order: 'desc' }, token),
      await h.post('order/orderList', { offset: 0, limit: 20, order: 'desc' }, token),
      await h.post('no/such/call', {}, token),
      await h.post('login', { name: 'demo' }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 400, 200, 200, 404, 422]);
    for (const r of answers) {
      expect(String(r.headers['content-type'])).toMatch(/^application\/json/);
      expect(r.headers['cache-control']).toBe('no-store');
    }
    expect((await get(h.app, '/api/health')).headers['cache-control']).toBe('no-store');
  });
});

describe('finding 13: download file names', () => {
  it('every download names its file per RFC 5987 with an ASCII fallback', async () => {
    const token = await h.login('demo');
    const r = await h.app.inject({
      method: 'POST',
      url: '/api/download/order',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      payload: '{}',
    });
    expect(r.statusCode).toBe(200);
    const cd = String(r.headers['content-disposition']);
    const m = /^attachment; filename="([\x20-\x7e]+)"; filename\*=UTF-8''([A-Za-z0-9!#$&+\-.^_`|~%]+)$/.exec(cd);
    expect(m, cd).not.toBeNull();
    expect(decodeURIComponent(m![2]!)).toMatch(/[^\p{ASCII}].*\.xlsx$/u);
    expect(m![1]).toMatch(/\.xlsx$/);
  });
  it('drops control and bidirectional characters and encodes what RFC 5987 does not allow', () => {
    const cd = contentDisposition("invoice\u202Exslx.exe\u2066\r\nSet-Cookie: x=1\u0000 (copy) 订单's*.xlsx");
    expect(cd).not.toMatch(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/u);
    const [, ascii, encoded] = /^attachment; filename="(.*)"; filename\*=UTF-8''(.*)$/.exec(cd)!;
    expect(ascii).toBe("invoicexslx.exeSet-Cookie: x=1 (copy) __'s*.xlsx");
    expect(encoded).toMatch(/^[A-Za-z0-9!#$&+\-.^_`|~%]+$/);
    expect(decodeURIComponent(encoded!)).toBe("invoicexslx.exeSet-Cookie: x=1 (copy) 订单's*.xlsx");
    expect(contentDisposition('a"b\\c.xlsx')).toContain('filename="a_b_c.xlsx"');
    // A lone surrogate or a name of control characters alone still makes a header, not a 500.
    expect(contentDisposition('\uD800x.xlsx')).toContain("filename*=UTF-8''%EF%BF%BDx.xlsx");
    expect(contentDisposition('\u202E\u0007')).toBe(`attachment; filename="download"; filename*=UTF-8''download`);
  });
});
