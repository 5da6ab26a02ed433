import { PrintError } from './printing.ts';

/** Largest document fetched from a URL; the WebSocket message limit bounds base64 data the same. */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/**
 * A PDF sent by URL, fetched only from the origin of the page that sent it (the console: an
 * origin PRINT_AGENT_ORIGINS let connect). Any other URL is refused before a request is made:
 * a page allowed to use the agent must not make it read the operator's own files, other ports
 * of this PC or the office intranet, nor learn from its answers what is there. So no redirect
 * is followed (it could lead anywhere) and a failed fetch never tells the remote status or the
 * network error, only that the document could not be fetched.
 *
 * `origin`: the connecting page's Origin (already checked against the allow-list); without one
 * nothing is fetched.
 */
export async function fetchPdf(url: string, origin: string | undefined): Promise<Buffer> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new PrintError('Not a URL: send the document as a URL of the console or as base64');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new PrintError('Only http(s) URLs are fetched: send other documents as base64');
  }
  const allowed = originOf(origin);
  if (!allowed || u.origin !== allowed) {
    throw new PrintError(
      `Only URLs of the console (${allowed ?? 'the page that connected'}) are fetched: send other documents as base64`,
    );
  }
  const failed = () => new PrintError('Could not fetch the document from the console: print it again');
  let res: Response;
  try {
    res = await fetch(u, { redirect: 'error', signal: AbortSignal.timeout(30_000) });
  } catch {
    throw failed();
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw failed();
  }
  if (Number(res.headers.get('content-length') ?? 0) > MAX_DOCUMENT_BYTES) {
    await res.body?.cancel().catch(() => {});
    throw new PrintError('The document is larger than 64 MiB');
  }
  let body: Buffer;
  try {
    body = Buffer.from(await res.arrayBuffer());
  } catch {
    throw failed();
  }
  if (body.length > MAX_DOCUMENT_BYTES) throw new PrintError('The document is larger than 64 MiB');
  return body;
}

/** The page's Origin as URL.origin spells it (lower-case host, default port dropped), or null. */
function originOf(origin: string | undefined): string | null {
  if (!origin) return null;
  try {
    const o = new URL(origin).origin;
    return o === 'null' ? null : o;
  } catch {
    return null;
  }
}

export function fromBase64(data: string): Buffer {
  // Data URLs ("data:application/pdf;base64,…") are accepted as QZ Tray does.
  const b64 = data.replace(/^data:[^,]*;base64,/, '');
  if (!/^[A-Za-z0-9+/=\s_-]*$/.test(b64)) throw new PrintError('Invalid base64 data');
  return Buffer.from(b64, 'base64');
}
