import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * An AES envelope client written only from the wire description in docs/api.md,
 * independent of the server's lib/crypto.ts, so a mismatch shows up in tests.
 */
export function sealRequest(token: string, body: unknown) {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(token, 'utf8'), Buffer.alloc(0), 'console-aes-v1', 32));
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([c.update(JSON.stringify(body), 'utf8'), c.final(), c.getAuthTag()]);
  return { data: ct.toString('base64'), iv: iv.toString('base64') };
}

export function openResponse(token: string, env: { data: string; iv: string }): unknown {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(token, 'utf8'), Buffer.alloc(0), 'console-aes-v1', 32));
  const raw = Buffer.from(env.data, 'base64');
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(env.iv, 'base64'));
  d.setAuthTag(raw.subarray(raw.length - 16));
  return JSON.parse(Buffer.concat([d.update(raw.subarray(0, raw.length - 16)), d.final()]).toString('utf8'));
}
