/**
 * A file over the upload limit is refused with the limit in the message, in both languages:
 * the message had a `{max}` placeholder nobody filled, and users read a literal "{max} MB".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from './batches/helpers.ts';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: { UPLOAD_LIMIT_BYTES: String(2 * 1024 * 1024) } });
});
afterAll(() => h?.app.close());

describe('upload limit message', () => {
  it('names the limit in MB in English and Chinese, never a placeholder', async () => {
    const demo = await h.login('demo');
    const data = Buffer.alloc(2 * 1024 * 1024 + 1024, 1);
    for (const [lang, re] of [
      ['en', /2 MB/],
      ['zh-CN', /2 MB/],
    ] as const) {
      const r = await upload(h, 'order/batch/createImport', demo, { channel: 'JP' }, { name: 'big.xlsx', data }, lang);
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      const text = JSON.stringify(r.body);
      expect(text).toMatch(re);
      expect(text).not.toContain('{max}');
    }
  });
});
