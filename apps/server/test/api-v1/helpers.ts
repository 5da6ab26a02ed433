import type { FastifyInstance } from 'fastify';
import type { Harness } from '../harness.ts';

/** A v1 call through app.inject: status, parsed body and headers. */
export async function v1(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  key: string | undefined,
  opts: { body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await app.inject({
    method,
    url: `/api/v1/${path}`,
    headers: {
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...opts.headers,
    },
    payload: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
  });
  let body: any = res.body;
  try {
    body = res.json();
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, body, headers: res.headers, raw: res.body };
}

/** Makes a key through the console's call as `user`; the whole key and its row. */
export async function makeKey(
  h: Harness,
  token: string,
  over: { name?: string; scopes?: string[]; customerIds?: number[]; expiresAt?: string } = {},
) {
  const r = await h.post(
    'apiKey/create',
    { name: over.name ?? 'shop', scopes: over.scopes ?? ['orders:read', 'orders:write'], ...over },
    token,
  );
  if (r.status !== 200) throw new Error(`apiKey/create: ${JSON.stringify(r.body)}`);
  return r.body.data as { key: string; id: number; prefix: string };
}

export async function customerIdOf(h: Harness, code: string): Promise<number> {
  const r = await h.db.selectFrom('customers').select('id').where('code', '=', code).executeTakeFirstOrThrow();
  return r.id;
}
