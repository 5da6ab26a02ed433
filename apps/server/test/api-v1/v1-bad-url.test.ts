import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness.ts';
import { makeKey } from './helpers.ts';

/**
 * A path the router cannot decode (a raw bad percent-encoding) or whose non-ASCII id matches no
 * order answers in the project's envelope with a key worded in zh and en, never the framework's bare
 * `{"error":"Bad Request"}`.
 */
let h: Harness;
let key: string;

beforeAll(async () => {
  h = await createHarness();
  key = (await makeKey(h, await h.login('demo'), { scopes: ['orders:read'] })).key;
});

const get = (url: string, lang = 'en') =>
  h.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}`, 'accept-language': lang } });

describe('a path with non-ASCII or broken percent-encoding', () => {
  it('a raw bad percent-encoding is a 400 in the envelope, worded in en and zh', async () => {
    for (const url of ['/api/v1/orders/%E4', '/api/v1/orders/%', '/api/orders/%E4%B8']) {
      const en = await get(url);
      expect(en.statusCode, url).toBe(400);
      expect(en.json(), url).toEqual({ code: 400, key: 'badUrl', message: expect.any(String), data: null });
      const zh = await get(url, 'zh-CN');
      expect(zh.json().key).toBe('badUrl');
      expect(zh.json().message).not.toBe(en.json().message);
      expect(zh.json().message).toMatch(/[\u4e00-\u9fff]/);
    }
  });
  it('a well-encoded non-ASCII id is an answer in the envelope (no such order)', async () => {
    const r = await get('/api/v1/orders/%E4%B8%AD');
    expect(r.json()).toMatchObject({ code: r.statusCode, key: expect.any(String) });
    expect(r.json().key).not.toBe('badRequestGeneric');
    expect(r.statusCode).toBeLessThan(500);
  });
});
