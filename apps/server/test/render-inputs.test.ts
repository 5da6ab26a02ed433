import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allKinds } from '../src/lib/render-kinds.ts';
import type { Storage } from '../src/lib/storage.ts';
import type { WorkbookJobData } from '../src/lib/workbook-job.ts';
import { openInput, renderInputKey, sealInput } from '../src/modules/export-jobs/render-inputs.ts';
import { createHarness, type Harness } from './harness.ts';
import { s3Server } from './files/s3-server.ts';

/**
 * Issue 36 #1: whoever could write the file store ran code on the workers (a queued render's
 * input named its module by URL, and a `data:` URL was imported and run), and every workbook
 * render wrote the database's connection string into the store. Here the input is rewritten in
 * the real store right after the asker wrote it, before a worker reads it, on each store; the
 * download must fail with the refusal's own key, and the attacker's module must never run.
 */
const en = { 'accept-language': 'en' };

type Tamper = 'module' | 'flip' | null;

/** The attacker's object: a render naming a `data:` module (by module and by kind) that writes `marker`. */
function attack(marker: string) {
  const code =
    `import fs from 'node:fs'; fs.writeFileSync(${JSON.stringify(marker)}, String(process.pid));` +
    ` export default async function (a, out) { fs.writeFileSync(out, 'attacker'); }`;
  const url = `data:text/javascript,${encodeURIComponent(code)}`;
  return { render: { module: url, kind: url, name: 'default', arg: {} }, out: '/tmp/attack.xlsx', ext: 'xlsx' };
}

/** Where a stored input's gzip starts: after the sealed layout's head, or at 0 (the layout before). */
const gzipAt = (bytes: Buffer) => bytes.indexOf(Buffer.from([0x1f, 0x8b, 0x08]));

/** The input rewritten as `mode` says: the attacker's object in place of the body, or one byte flipped. */
function rewrite(bytes: Buffer, mode: Exclude<Tamper, null>, marker: string): Buffer {
  const at = gzipAt(bytes);
  if (mode === 'flip') {
    const out = Buffer.from(bytes);
    // A byte of the compressed body: the serialized job, not the layout's head.
    const i = at + Math.floor((bytes.length - at) / 2);
    out[i] = out[i]! ^ 0x01;
    return out;
  }
  // The head kept as it was (its code cannot be made without the key), the body the attacker's.
  return Buffer.concat([bytes.subarray(0, Math.max(at, 0)), zlib.gzipSync(v8.serialize(attack(marker)))]);
}

/** The folder, the database (on SQLite too: one instance) and an S3-compatible bucket. */
const stores = ['local', 'database', 's3'] as const;

describe.each(stores)('a render input in the %s store', (store) => {
  let h: Harness;
  let demo: string;
  let s3: Awaited<ReturnType<typeof s3Server>> | undefined;
  const tamper: { mode: Tamper } = { mode: null };
  /** Every render input as written to the store, before any rewrite. */
  const written: Buffer[] = [];
  const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'render-attack-')), 'ran');

  const wrap = (real: Storage): Storage => ({
    put: (data, hint, sha256) => {
      if (!hint.startsWith('render-input')) return real.put(data, hint, sha256);
      written.push(data);
      return tamper.mode ? real.put(rewrite(data, tamper.mode, marker), hint) : real.put(data, hint, sha256);
    },
    get: (key) => real.get(key),
    stream: (key) => real.stream(key),
    remove: (key) => real.remove(key),
    check: () => real.check(),
    listOlderThan: (before) => real.listOlderThan(before),
  });

  beforeAll(async () => {
    s3 = store === 's3' ? await s3Server() : undefined;
    h = await createHarness({ env: s3?.env ?? { FILE_STORE: store }, wrapStorage: wrap });
    demo = await h.login('demo');
  });
  afterAll(async () => {
    await s3?.close();
    fs.rmSync(path.dirname(marker), { recursive: true, force: true });
  });

  const exportOrders = () =>
    h.post('order/downloadOrderExcel', { sort: 'createdAt', order: 'desc' }, demo, en) as Promise<{
      status: number;
      body: any;
    }>;

  it.each(['module', 'flip'] as const)(
    'an input rewritten in the store (%s) is refused: the download fails with the reason, nothing of it runs',
    async (mode) => {
      tamper.mode = mode;
      try {
        const r = await exportOrders();
        expect({ status: r.status, key: r.body.key }).toEqual({ status: 500, key: 'renderInputRefused' });
        expect(r.body.message).toMatch(/integrity check/);
        expect(JSON.stringify(r.body)).not.toMatch(/data:|\/tmp|render-input|stack/);
      } finally {
        tamper.mode = null;
      }
      // The render has failed (the asker read its row): had the module been imported, its first
      // statement would have written the marker before that.
      expect(fs.existsSync(marker)).toBe(false);
      // And the next, untouched, render goes through.
      expect((await exportOrders()).status).toBe(200);
    },
    60_000,
  );

  it('the stored input holds neither the database address nor its SQL', async () => {
    written.length = 0;
    expect((await exportOrders()).status).toBe(200);
    expect(written).toHaveLength(1);
    const raw = written[0]!;
    const at = gzipAt(raw);
    expect(at).toBeGreaterThanOrEqual(0);
    const body = zlib.gunzipSync(raw.subarray(at));
    const database = h.config.database;
    const address = database.dialect === 'postgres' ? database.url : path.resolve(database.file);
    for (const bytes of [raw, body]) {
      const text = bytes.toString('latin1');
      expect(text).not.toContain(address);
      if (database.dialect === 'postgres') expect(text).not.toMatch(/postgres(ql)?:\/\//);
      expect(text).not.toMatch(/select/i);
      expect(text).not.toMatch(/\.ts\b|file:\/\//);
    }
    // A kind and plain data: the decoded input names the order export's row kind.
    expect(JSON.stringify(v8.deserialize(body))).toContain('"kind":"orders"');
  }, 60_000);
});

describe('a sealed render input', () => {
  const key = renderInputKey(Buffer.alloc(32, 7));
  const job: WorkbookJobData = {
    sheet: { name: 'S', columns: [{ header: 'a' }] },
    source: { query: { sql: 'select 1 as a where ? = ?', parameters: [new Date(0), 1] } },
    mapper: { kind: 'orders', arg: 'en' },
    out: '/somewhere/of/the/asker/x.xlsx',
  };
  const outFor = (ext: string) => `/ours/y.${ext}`;

  it('opens as it was sealed, for its render only, with its query and under its key only', async () => {
    const { bytes, query } = await sealInput(key, 'r1', job);
    expect(await openInput(key, 'r1', bytes, query, outFor)).toEqual({ ...job, out: '/ours/y.xlsx' });
    const refused = /renderInputRefused/;
    // Another render's id: a customer's valid input moved into another's render.
    await expect(openInput(key, 'r2', bytes, query, outFor)).rejects.toThrow(refused);
    await expect(openInput(renderInputKey(Buffer.alloc(32, 8)), 'r1', bytes, query, outFor)).rejects.toThrow(refused);
    // The query, which goes with the job, is covered by the same code.
    const other = v8.serialize({ sql: 'select secret from users', parameters: [] }).toString('base64');
    await expect(openInput(key, 'r1', bytes, other, outFor)).rejects.toThrow(refused);
    await expect(openInput(key, 'r1', bytes, null, outFor)).rejects.toThrow(refused);
    await expect(openInput(key, 'r1', Buffer.from('short'), query, outFor)).rejects.toThrow(refused);
  });

  it('every render and row kind names a function its module exports', async () => {
    const { renders, mappers } = allKinds();
    expect(renders.size + mappers.size).toBeGreaterThan(0);
    for (const ref of [...renders.values(), ...mappers.values()])
      expect(typeof ((await import(ref.module)) as Record<string, unknown>)[ref.name], ref.name).toBe('function');
  });
});
