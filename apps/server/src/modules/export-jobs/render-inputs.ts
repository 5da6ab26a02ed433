import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import v8 from 'node:v8';
import zlib from 'node:zlib';
import type { QueryText, RenderJobData, WorkbookJobData } from '../../lib/workbook-job.ts';

/**
 * A render's input as it crosses the file store (issue 36 #1). Whoever could write the store
 * could rewrite a queued input (a `data:` module URL was imported and run by the worker), and
 * whoever could read it found the database's connection string there. Now:
 * - the stored object holds kinds (lib/render-kinds.ts) and plain data only: no module, no SQL,
 *   no connection settings, no path of the asker's;
 * - a query's SQL and parameters go with the queue job (the database, not the store), and the
 *   worker instance reads with its own configured connection;
 * - both are authenticated together with an HMAC-SHA256 under a key derived from the server's
 *   secret key (JD_SECRET_KEY, or DATA_DIR/jd-secret.key), bound to the render's id, so an input
 *   cannot be changed, damaged or moved to another render (another customer's) unnoticed.
 * The MAC is checked before anything is decompressed or deserialized.
 */

/** The object's first bytes: its layout's name and version. */
const MAGIC = Buffer.from('console-render-input/1\n', 'utf8');
const MAC_BYTES = 32;
/** HKDF's info: a key of its own, so a MAC never doubles as anything the secret key does elsewhere. */
const KEY_INFO = 'console render inputs v1';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

type StoredSource = { rows: unknown[] } | { records: unknown[] } | { query: 'with-the-job' };
type Stored =
  | { workbook: Omit<WorkbookJobData, 'out' | 'source'> & { source: StoredSource }; ext: string }
  | { render: RenderJobData['render']; ext: string };

/** A sealed input the worker refuses: the failure's text names it, and the asker answers with its key. */
export const INPUT_REFUSED = 'renderInputRefused';
export class RenderInputRefused extends Error {
  constructor(reason: string) {
    super(`${INPUT_REFUSED}: ${reason}`);
  }
}

/** The MAC key of render inputs, from the server's 32-byte secret key. */
export function renderInputKey(secret: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), KEY_INFO, 32));
}

function mac(key: Buffer, id: string, query: string | null, body: Buffer): Buffer {
  const h = createHmac('sha256', key);
  // Each part with its length: no two different (id, query, body) give the same bytes.
  for (const part of [Buffer.from(id, 'utf8'), Buffer.from(query ?? '', 'utf8'), body]) {
    const len = Buffer.alloc(8);
    len.writeBigUInt64BE(BigInt(part.length));
    h.update(len).update(part);
  }
  h.update(query === null ? 'no-query' : 'query');
  return h.digest();
}

/**
 * The bytes to store for render `id`, and the query to send with its job (base64 of the
 * serialized SQL and parameters: a parameter keeps its type, a Date or a Buffer).
 */
export async function sealInput(
  key: Buffer,
  id: string,
  data: WorkbookJobData | RenderJobData,
): Promise<{ bytes: Buffer; query: string | null }> {
  const ext = path.extname(data.out).slice(1) || 'bin';
  let stored: Stored;
  let query: string | null = null;
  if ('render' in data) stored = { render: data.render, ext };
  else {
    const { out: _out, source, ...rest } = data;
    if ('query' in source) {
      // `replica`: the asker's reader may read the replica (read-your-own-writes, decided where it
      // was asked); sealed with the query, so it cannot be turned on in the store.
      const q: QueryText = {
        sql: source.query.sql,
        parameters: source.query.parameters,
        ...(source.query.replica ? { replica: true } : {}),
      };
      query = v8.serialize(q).toString('base64');
      stored = { workbook: { ...rest, source: { query: 'with-the-job' } }, ext };
    } else stored = { workbook: { ...rest, source }, ext };
  }
  const body = await gzip(v8.serialize(stored), { level: 1 });
  return { bytes: Buffer.concat([MAGIC, mac(key, id, query, body), body]), query };
}

/** Render `id`'s input, its file to be written to `out`; refused unless its MAC holds. */
export async function openInput(
  key: Buffer,
  id: string,
  bytes: Buffer,
  query: string | null | undefined,
  outFor: (ext: string) => string,
): Promise<WorkbookJobData | RenderJobData> {
  const head = MAGIC.length + MAC_BYTES;
  if (bytes.length < head || !bytes.subarray(0, MAGIC.length).equals(MAGIC))
    throw new RenderInputRefused('not a sealed render input');
  const body = bytes.subarray(head);
  const want = mac(key, id, query ?? null, body);
  if (!timingSafeEqual(want, bytes.subarray(MAGIC.length, head)))
    throw new RenderInputRefused('its authentication code does not match');
  const stored = v8.deserialize(await gunzip(body)) as Stored;
  const out = outFor(stored.ext);
  if ('render' in stored) return { render: stored.render, out };
  const { source, ...rest } = stored.workbook;
  if (!('query' in source)) return { ...rest, source: source as WorkbookJobData['source'], out };
  if (!query) throw new RenderInputRefused('its query is missing');
  return { ...rest, source: { query: v8.deserialize(Buffer.from(query, 'base64')) as QueryText }, out };
}
