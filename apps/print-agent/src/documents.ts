import { PrintError } from './printing.ts';

/** Largest document fetched from a URL; the WebSocket message limit bounds base64 data the same. */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/**
 * A PDF sent by URL. Only http(s): a page allowed to use the agent must not make it read the
 * operator's own files.
 */
export async function fetchPdf(url: string): Promise<Buffer> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new PrintError(`Not a URL: ${url.slice(0, 200)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new PrintError('Only http(s) URLs are fetched: send other documents as base64');
  }
  let res: Response;
  try {
    res = await fetch(u, { signal: AbortSignal.timeout(30_000) });
  } catch (e) {
    throw new PrintError(`Cannot fetch ${u.href}: ${(e as Error).message}`);
  }
  if (!res.ok) throw new PrintError(`Cannot fetch ${u.href}: HTTP ${res.status}`);
  const body = Buffer.from(await res.arrayBuffer());
  if (body.length > MAX_DOCUMENT_BYTES) throw new PrintError(`${u.href} is larger than 64 MiB`);
  return body;
}

export function fromBase64(data: string): Buffer {
  // Data URLs ("data:application/pdf;base64,…") are accepted as QZ Tray does.
  const b64 = data.replace(/^data:[^,]*;base64,/, '');
  if (!/^[A-Za-z0-9+/=\s_-]*$/.test(b64)) throw new PrintError('Invalid base64 data');
  return Buffer.from(b64, 'base64');
}
