/**
 * AES calls from a spec (ARCHITECTURE.md "AES calls"): the body sealed with AES-256-GCM under a key
 * derived by HKDF-SHA256 from the caller's access token, the answer opened the same way. Item
 * and order-review calls refuse a plain body, so their fixtures go through here.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { MAIN } from '../servers.ts';

const keyOf = (token: string) =>
  Buffer.from(hkdfSync('sha256', Buffer.from(token, 'utf8'), Buffer.alloc(0), 'console-aes-v1', 32));

export function seal(token: string, body: unknown) {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', keyOf(token), iv);
  const ct = Buffer.concat([c.update(JSON.stringify(body), 'utf8'), c.final(), c.getAuthTag()]);
  return { data: ct.toString('base64'), iv: iv.toString('base64') };
}

export function open(token: string, data: string, iv: string): unknown {
  const raw = Buffer.from(data, 'base64');
  const d = createDecipheriv('aes-256-gcm', keyOf(token), Buffer.from(iv, 'base64'));
  d.setAuthTag(raw.subarray(raw.length - 16));
  return JSON.parse(Buffer.concat([d.update(raw.subarray(0, raw.length - 16)), d.final()]).toString('utf8'));
}

/** `POST /api/<path>` as an AES call; the answer's data opened when it is sealed. */
export async function aesApi<T = unknown>(
  request: APIRequestContext,
  path: string,
  body: unknown,
  token: string,
  base = MAIN,
): Promise<{ status: number; body: { code: number; message: string; data: T } }> {
  const res = await request.post(`${base}/api/${path}`, {
    data: seal(token, body),
    headers: { Authorization: `Bearer ${token}`, AES: '1' },
  });
  const env = (await res.json()) as { code: number; message: string; data: unknown; iv?: string };
  const data = typeof env.data === 'string' && env.iv ? open(token, env.data, env.iv) : env.data;
  return { status: res.status(), body: { code: env.code, message: env.message, data: data as T } };
}
