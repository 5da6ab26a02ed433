import type { Harness } from './harness.ts';

/**
 * A call §7 does not mark AES, as a client written from the spec sends it: the JSON body as it
 * is, no `aes` header. The same answer shape as items/helpers.ts `aes`, so a test reads both alike.
 */
export async function plain(h: Harness, path: string, body: unknown, token: string, lang = 'en') {
  const r = await h.post(path, body, token, { 'accept-language': lang });
  return { status: r.status, body: r.body, data: r.body?.data as any, headers: r.headers };
}

/** A plain call that answers a file on success and JSON otherwise: the raw bytes and headers. */
export async function plainBlob(h: Harness, path: string, body: unknown, token: string, lang?: string) {
  return blobCall(h, path, body, token, lang ? { 'accept-language': lang } : {});
}

/**
 * A JSON POST whose answer is read as bytes, not parsed: `payload` goes as it is, so the sealed
 * variant (items/helpers.ts `aesBlob`) passes its sealed body and `aes` header through here.
 */
export async function blobCall(
  h: Harness,
  path: string,
  payload: unknown,
  token: string,
  headers: Record<string, string>,
) {
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    payload: JSON.stringify(payload),
  });
  return {
    status: res.statusCode,
    bytes: res.rawPayload,
    headers: res.headers,
    type: res.headers['content-type'],
    body: res.body,
  };
}
