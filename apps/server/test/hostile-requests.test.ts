import { allCalls, type CallDef, type Leaf, leavesOf, type Path, sampleOf, withValue } from '@console/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { sealRequest } from './aes-client.ts';
import { createHarness, type Harness } from './harness.ts';

/**
 * Finding 20: hostile requests generated from each call's schema. For every call of the
 * catalogue a valid body is built from its zod schema (existing demo ids where an id is
 * asked), then one field at a time is made hostile — NUL, a bidi override, a lone
 * surrogate, 2^31 and 2^63, negative and fractional numbers, 100 KB strings, arrays for
 * scalars — and sent as a customer, an agent and an operator. Every answer is a 4xx
 * (never a 500), and a 422 names the field. Multipart calls also get malformed multipart,
 * a second file and an oversized part; the AES call gets broken envelopes.
 */
const UPLOAD_LIMIT = 64 * 1024;
const roles = ['demo', 'agent', 'operator'] as const;
type Role = (typeof roles)[number];

let h: Harness;
const tokens = {} as Record<Role, string>;
const ids = { customer: 0, order: 0, batch: 0, notice: 0, idCard: 0 };

beforeAll(async () => {
  h = await createHarness({ env: { UPLOAD_LIMIT_BYTES: String(UPLOAD_LIMIT) } });
  for (const r of roles) tokens[r] = await h.login(r);
  const customer = await h.db.selectFrom('customers').select('id').where('code', '=', 'DEMO').executeTakeFirstOrThrow();
  ids.customer = customer.id;
  const first = async (table: 'orders' | 'batches' | 'id_cards', withCustomer = true) =>
    (
      await h.db
        .selectFrom(table)
        .select('id')
        .$if(withCustomer, (q) => q.where('customer_id', '=', customer.id))
        .orderBy('id')
        .executeTakeFirst()
    )?.id ?? 1;
  ids.order = await first('orders');
  ids.batch = await first('batches');
  ids.idCard = await first('id_cards');
  ids.notice = (await h.db.selectFrom('notices').select('id').orderBy('id').executeTakeFirst())?.id ?? 1;
});

/** Existing demo ids where a call asks for one, so a body reaches as far as it can. */
function idFor(call: CallDef, path: Path): number | undefined {
  const name = String(path.findLast((p) => typeof p === 'string'));
  if (name === 'customerId') return ids.customer;
  if (name === 'batchId') return ids.batch;
  if (name === 'orderId') return ids.order;
  if (name === 'id' || name === 'ids') {
    if (call.path.startsWith('order/batch')) return ids.batch;
    if (call.path.startsWith('notice') || call.path.startsWith('notification')) return ids.notice;
    if (call.path.startsWith('order/idCard')) return ids.idCard;
    return ids.order;
  }
  return undefined;
}
const validBody = (call: CallDef, include: Path = []) =>
  sampleOf(call.request, (path, kind) => (kind === 'number' ? idFor(call, path) : undefined), include);

const BIG = 'x'.repeat(100_000);
/** One field's hostile values, by what the field is. */
function hostileValues(leaf: Leaf): [string, unknown][] {
  const scalarArray: [string, unknown][] = leaf.acceptsArray ? [] : [['an array', ['a']]];
  switch (leaf.kind) {
    case 'string':
      return [
        ['NUL', 'a\u0000b'],
        ['bidi override', 'a\u202eb'],
        ['lone surrogate', 'a\ud800b'],
        ['100 KB', BIG],
        ['a number', 12],
        ...scalarArray,
      ];
    case 'number':
      return [
        ['2^31', 2 ** 31],
        ['2^63', 2 ** 63],
        ['2^63 as digits', '9223372036854775808'],
        ['negative', -1],
        ['fraction', 1.5],
        ['an array', [1]],
        ['NUL', '1\u0000'],
      ];
    case 'boolean':
      return [
        ['an array', [true]],
        ['a string', 'true\u0000'],
        ['a number', 2 ** 31],
      ];
    case 'enum':
      return [
        ['unknown value', 'zzz\u0000'],
        ['an array', ['a']],
        ['100 KB', BIG],
      ];
    case 'unknown':
      return [
        ['NUL inside', { a: ['b\u0000'] }],
        ['bidi key', { ['k\u202e']: 1 }],
        ['100 KB', BIG],
      ];
    default:
      return [['an array', ['a']]];
  }
}

/** A body with nothing to vary is still sent hostile: the wrong shape, stray text, NUL. */
const shapeless: [string, unknown][] = [
  ['an array', [1]],
  ['a string', 'a\u0000'],
  ['a stray field', { x: 'a\u0000b' }],
];

function send(call: CallDef, role: Role | null, body: unknown, lang = 'en') {
  const token = role ? tokens[role] : undefined;
  if (call.aes && token)
    return h.post(call.path, sealRequest(token, body), token, { aes: '1', 'accept-language': lang });
  return h.post(call.path, JSON.stringify(body), token, { 'accept-language': lang });
}

function expectRefused(r: { status: number; body: any }, path: Path, label: string) {
  const where = `${label}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`;
  expect(r.status, where).toBeGreaterThanOrEqual(400);
  expect(r.status, where).toBeLessThan(500);
  if (typeof r.body === 'object' && r.body) expect(r.body.code, where).toBe(r.status);
  if (r.status === 422 && path.length) {
    const p = path.join('.');
    const keys = Object.keys(r.body.data ?? {});
    expect(
      keys.some((k) => k === p || k.startsWith(`${p}.`) || p.startsWith(`${k}.`)),
      where,
    ).toBe(true);
  }
}

function multipartOf(fields: Record<string, string>, files: { name: string; data: Buffer }[]) {
  const boundary = `----hostile${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), boundary };
}

async function postRaw(path: string, role: Role, contentType: string, payload: Buffer | string) {
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'content-type': contentType, authorization: `Bearer ${tokens[role]}`, 'accept-language': 'en' },
    payload,
  });
  let body: any = res.body;
  try {
    body = res.json();
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, body };
}

const jsonCalls = allCalls.filter((c) => c.kind !== 'multipart');
const multipartCalls = allCalls.filter((c) => c.kind === 'multipart');

describe('finding 20: hostile requests generated from every call’s schema', () => {
  it('covers the whole catalogue, with a valid generated body for each call', () => {
    expect(jsonCalls.length).toBeGreaterThan(70);
    expect(multipartCalls.length).toBeGreaterThanOrEqual(8);
    for (const call of allCalls) expect(call.request.safeParse(validBody(call)).success, call.path).toBe(true);
  });

  it.each(jsonCalls.map((c) => [c.path, c]))(
    '%s: one hostile field at a time, as customer, agent and operator',
    async (_, call) => {
      const leaves = leavesOf(call.request);
      const cases: { path: Path; label: string; body: unknown }[] = [];
      for (const leaf of leaves) {
        const base = validBody(call, leaf.path);
        for (const [label, value] of hostileValues(leaf))
          cases.push({
            path: leaf.path,
            label: `${leaf.path.join('.')} ${label}`,
            body: withValue(base, leaf.path, value),
          });
      }
      if (!leaves.length) for (const [label, body] of shapeless) cases.push({ path: [], label, body });
      expect(cases.length).toBeGreaterThan(0);
      // Each case goes out as one role in turn (every role gets several per call), which keeps the
      // run under a minute per database; the shapeless cases go out as all three.
      const who: (Role | null)[] = call.auth ? [...roles] : [null];
      for (const [i, c] of cases.entries()) {
        const senders = cases.length < who.length * 2 ? who : [who[i % who.length]!];
        for (const role of senders) expectRefused(await send(call, role, c.body), c.path, `${role} ${c.label}`);
      }
    },
  );

  it.each(multipartCalls.map((c) => [c.path, c]))(
    '%s: malformed multipart, a second file, an oversized part, hostile fields',
    async (_, call) => {
      const file = { name: 'a.xlsx', data: Buffer.from('PK\u0003\u0004 not really a workbook') };
      const fields = Object.fromEntries(
        Object.entries(validBody(call) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
      );
      for (const role of roles) {
        const ok = multipartOf(fields, [file]);
        const type = `multipart/form-data; boundary=${ok.boundary}`;
        const cases: [string, string, Buffer | string, Path][] = [
          ['no closing boundary', type, ok.payload.subarray(0, ok.payload.length - 8), []],
          ['cut in a header', type, ok.payload.subarray(0, 30), []],
          ['garbage', type, Buffer.from('\u0000\u0001garbage\r\n--\r\n'), []],
          ['no boundary', 'multipart/form-data', ok.payload, []],
          ['wrong boundary', 'multipart/form-data; boundary=nope', ok.payload, []],
          ['JSON body', 'application/json', '{}', []],
        ];
        const two = multipartOf(fields, [file, file]);
        cases.push(['a second file', `multipart/form-data; boundary=${two.boundary}`, two.payload, []]);
        const big = multipartOf(fields, [{ name: 'big.xlsx', data: Buffer.alloc(UPLOAD_LIMIT + 1024, 1) }]);
        cases.push(['an oversized part', `multipart/form-data; boundary=${big.boundary}`, big.payload, []]);
        const bigField = multipartOf({ ...fields, customerId: '1'.repeat(100_000) }, [file]);
        cases.push(['an oversized field', `multipart/form-data; boundary=${bigField.boundary}`, bigField.payload, []]);
        for (const leaf of leavesOf(call.request)) {
          const name = String(leaf.path[0]);
          const values =
            leaf.kind === 'number'
              ? ['2147483648', '9223372036854775808', '-1', '1.5', '1\u0000']
              : // A multipart body is UTF-8: a lone surrogate cannot travel in it (it arrives as U+FFFD).
                ['a\u0000b', 'a\u202eb', 'x'.repeat(1000)];
          for (const value of values) {
            const m = multipartOf({ ...fields, [name]: value }, [file]);
            cases.push([
              `${name}=${JSON.stringify(value)}`,
              `multipart/form-data; boundary=${m.boundary}`,
              m.payload,
              [name],
            ]);
          }
        }
        for (const [label, contentType, payload, path] of cases) {
          expectRefused(await postRaw(call.path, role, contentType, payload), path, `${role} ${label}`);
        }
      }
    },
  );

  it('the AES call refuses broken envelopes with a 4xx', async () => {
    const aesCalls = allCalls.filter((c) => c.aes);
    expect(aesCalls.length).toBeGreaterThan(0);
    for (const call of aesCalls) {
      for (const role of roles) {
        const token = tokens[role];
        const good = sealRequest(token, {});
        const other = sealRequest(tokens[role === 'demo' ? 'agent' : 'demo'], {});
        const cases: [string, unknown, Record<string, string>][] = [
          ['not sealed', {}, { aes: '1' }],
          ['no AES header', good, {}],
          ['data not base64', { data: '%%%\u0000', iv: good.iv }, { aes: '1' }],
          ['iv of the wrong size', { data: good.data, iv: 'AAAA' }, { aes: '1' }],
          ['sealed for another session', other, { aes: '1' }],
          // Another first character (a sealed body that already starts with 'A' would pass unchanged).
          [
            'flipped bytes',
            { data: `${good.data.startsWith('A') ? 'B' : 'A'}${good.data.slice(1)}`, iv: good.iv },
            { aes: '1' },
          ],
          ['100 KB of noise', { data: Buffer.alloc(100_000, 7).toString('base64'), iv: good.iv }, { aes: '1' }],
          ['an extra field', { ...good, x: 1 }, { aes: '1' }],
          ['sealed JSON of the wrong shape', sealRequest(token, [1, 2]), { aes: '1' }],
          ['sealed NUL', sealRequest(token, { x: 'a\u0000b' }), { aes: '1' }],
        ];
        for (const [label, body, headers] of cases) {
          const r = await h.post(call.path, body, token, headers);
          expectRefused(r, [], `${call.path} ${role} ${label}`);
        }
      }
    }
    // Every AES call × every role × ten envelopes, one after another: its own budget rather than
    // the suite's 30 s per test (a PostgreSQL run on a loaded machine went past it).
  }, 180_000);
});
